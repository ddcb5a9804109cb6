package sqlparse

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLongNames(t *testing.T) {
	long := strings.Repeat("a", 65)
	wide := strings.Repeat("库", 65) // 195 bytes, 65 characters
	ok64 := strings.Repeat("b", 64)
	tests := []struct {
		sql  string
		want []LongName
	}{
		{"CREATE TABLE " + long + " (id INT)", []LongName{{"table", long, 65}}},
		{"CREATE TABLE t (" + wide + " INT)", []LongName{{"column", wide, 65}}},
		{"CREATE TABLE t (id INT, KEY " + long + " (id))", []LongName{{"index", long, 65}}},
		{"CREATE TABLE t (id INT, CONSTRAINT " + long + " UNIQUE (id))", []LongName{{"index", long, 65}}},
		{"CREATE TABLE t (id INT, CONSTRAINT " + long + " CHECK (id > 0))", []LongName{{"constraint", long, 65}}},
		{"CREATE TABLE t (id INT CONSTRAINT " + long + " CHECK (id > 0))", []LongName{{"constraint", long, 65}}},
		{"CREATE TABLE t (id INT, CONSTRAINT " + long + " FOREIGN KEY (id) REFERENCES p (id))", []LongName{{"constraint", long, 65}}},
		{"ALTER TABLE t ADD COLUMN " + long + " INT", []LongName{{"column", long, 65}}},
		{"ALTER TABLE t ADD INDEX " + long + " (a)", []LongName{{"index", long, 65}}},
		{"ALTER TABLE t RENAME COLUMN a TO " + long, []LongName{{"column", long, 65}}},
		{"ALTER TABLE t RENAME INDEX a TO " + long, []LongName{{"index", long, 65}}},
		{"ALTER TABLE t RENAME TO " + long, []LongName{{"table", long, 65}}},
		{"CREATE INDEX " + long + " ON t (a)", []LongName{{"index", long, 65}}},
		{"UPDATE " + long + " SET stock = stock - 1 WHERE id = ?", []LongName{{"table", long, 65}}},
		{"UPDATE t SET " + long + " = ? WHERE " + long + " = ?", []LongName{{"column", long, 65}}},
		{"SELECT id FROM " + long + ".t", []LongName{{"database", long, 65}}},
		// Aliases may be longer, and an alias named again is no column.
		{"SELECT id AS " + long + " FROM t ORDER BY " + long, nil},
		{"SELECT " + long + ".id FROM t AS " + long, nil},
		{"CREATE TABLE " + ok64 + " (" + ok64 + " INT, KEY " + ok64 + " (" + ok64 + "), CONSTRAINT " + ok64 + " CHECK (" + ok64 + " > 0))", nil},
		{"CREATE TABLE t (" + strings.Repeat("库", 64) + " INT)", nil},
	}
	p := NewParser()
	for _, tt := range tests {
		n, err := p.Parse(tt.sql)
		if err != nil {
			t.Errorf("%.50s: %v", tt.sql, err)
			continue
		}
		if d := cmp.Diff(tt.want, LongNames(n)); d != "" {
			t.Errorf("LongNames(%.50s…) (-want +got):\n%s", tt.sql, d)
		}
	}
}

// TestMayNameLong holds the prefilter to LongNames: every statement that
// names a long name passes it, quoted in every way; texts that cannot hold
// one do not.
func TestMayNameLong(t *testing.T) {
	long, spaced := strings.Repeat("a", 65), strings.Repeat("a b", 22)
	p := NewParser()
	for _, sql := range []string{
		"CREATE TABLE " + long + " (id INT)",
		"CREATE TABLE `" + long + "` (id INT)",
		"CREATE TABLE `" + spaced + "` (id INT)",
		"CREATE TABLE `" + strings.Repeat("ab``", 22) + "` (id INT)",
		"CREATE TABLE t (`" + spaced + "` INT, `b` INT)",
		"UPDATE t SET `" + spaced + "` = 1 WHERE note = 'x`y'",
		"CREATE TABLE t (" + strings.Repeat("库", 65) + " INT)",
	} {
		n, err := p.Parse(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if len(LongNames(n)) == 0 {
			t.Fatalf("%s: no long name: the case tests nothing", sql)
		}
		if !MayNameLong(sql) {
			t.Errorf("MayNameLong(%q) = false, but it names %v", sql, LongNames(n))
		}
	}
	for _, sql := range []string{
		"UPDATE t_sku SET stock = stock - 1 WHERE id = ? AND stock >= 1",
		"SELECT `a`, `b` FROM `t` WHERE `c` = 'a long string literal that is over sixty-four bytes, with spaces'",
		"CREATE TABLE `" + strings.Repeat("b", 64) + "` (`" + strings.Repeat("c", 64) + "` INT)",
	} {
		if MayNameLong(sql) {
			t.Errorf("MayNameLong(%q) = true: no name in it is long", sql)
		}
	}
}
