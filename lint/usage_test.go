package lint_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// TestWatchMentions holds the prefilter to Observe: a statement Observe
// records a use of is always mentioned; one naming no watched table as a
// word is not.
func TestWatchMentions(t *testing.T) {
	w := lint.Watch{}
	w.Add("t_sku", "stock")
	w.Add("库存", "")
	m := w.Mentioner()
	if m == nil {
		t.Fatal("plain names have no Mentioner")
	}
	p := sqlparse.NewParser()
	s := schema.New()
	for _, sql := range []string{
		"UPDATE t_sku SET stock = stock - 1 WHERE id = ?",
		"update `T_SKU` set `stock` = 0",
		"SELECT s.stock FROM shop.t_sku AS s JOIN t_order o ON o.sku_id = s.id",
		"DELETE FROM 库存 WHERE id = 1",
		"INSERT INTO t_sku (id, stock) VALUES (1, 2)",
	} {
		n, err := p.Parse(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		var u lint.Usage
		u.Observe(&lint.Statement{SQL: sql, Node: n, File: "q.sql", Line: 1}, w, s)
		if u.Table("t_sku").N == 0 && u.Table("库存").N == 0 {
			t.Fatalf("%s: Observe recorded no use: the case tests nothing", sql)
		}
		if !m.Mentions(sql) {
			t.Errorf("Mentions(%q) = false, but Observe records a use", sql)
		}
	}
	for _, sql := range []string{"UPDATE t_sku_log SET n = n + 1", "SELECT sku FROM t", "SELECT stock FROM `t sku`"} {
		if m.Mentions(sql) {
			t.Errorf("Mentions(%q) = true: it names no watched table", sql)
		}
	}
	w.Add("my table", "")
	if w.Mentioner() != nil {
		t.Error("a name with a space has a Mentioner")
	}
}

// TestMentionerIsALookupOfEveryWord holds Mentioner's filters by length
// and first letter to the plain reading: a statement is mentioned when one
// of its words, in lower case, is a watched name. The texts are random
// mixes of watched names in any case, near misses, keywords, names beyond
// ASCII (whose lower case changes length) and words longer than 64 bytes.
func TestMentionerIsALookupOfEveryWord(t *testing.T) {
	w := lint.Watch{}
	long := strings.Repeat("x", 70)
	for _, n := range []string{"t_sku", "a", "库存", "straße", long} {
		w.Add(n, "")
	}
	m := w.Mentioner()
	oracle := func(sql string) bool {
		isIdent := func(r rune) bool {
			return r >= 0x80 || r == '_' || r == '$' || unicode.IsDigit(r) && r < 0x80 || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
		}
		for _, word := range strings.FieldsFunc(sql, func(r rune) bool { return !isIdent(r) }) {
			if w[strings.ToLower(word)] != nil {
				return true
			}
		}
		return false
	}
	pieces := []string{"t_sku", "T_SKU", "T_Sku", "t_skus", "xt_sku", "A", "a", "ab", "库存", "库存表", "STRASSE", "Straße", "STRAẞE",
		long, strings.ToUpper(long), long + "y", "İ", "SELECT", "FROM", "t", "sku", "_", "$a", "1", "tsku"}
	seps := []string{" ", ",", ".", "`", "(", ")", "\n", "", "-", "'"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var sb strings.Builder
		for range 1 + rng.IntN(6) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
			sb.WriteString(seps[rng.IntN(len(seps))])
		}
		sql := sb.String()
		if got, want := m.Mentions(sql), oracle(sql); got != want {
			t.Fatalf("Mentions(%q) = %v, want %v", sql, got, want)
		}
	}
}
