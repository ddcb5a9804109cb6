package lint_test

import (
	"testing"

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
	if !w.Plain() {
		t.Fatal("plain names are not Plain")
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
		if !w.Mentions(sql) {
			t.Errorf("Mentions(%q) = false, but Observe records a use", sql)
		}
	}
	for _, sql := range []string{"UPDATE t_sku_log SET n = n + 1", "SELECT sku FROM t", "SELECT stock FROM `t sku`"} {
		if w.Mentions(sql) {
			t.Errorf("Mentions(%q) = true: it names no watched table", sql)
		}
	}
	w.Add("my table", "")
	if w.Plain() {
		t.Error("a name with a space is Plain")
	}
}
