package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/sqlparse"
)

func FuzzFromDDL(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "*.sql"))
	dumps, _ := filepath.Glob(filepath.Join("testdata", "dump", "*.sql"))
	for _, p := range append(files, dumps...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		alterBase,
		alterBase + "ALTER TABLE t DROP COLUMN qty, RENAME COLUMN sku TO s, ADD UNIQUE (s, wh), RENAME TO u;",
		"CREATE TABLE a (x INT); RENAME TABLE a TO b, b TO a, nope TO c;",
		"CREATE TABLE t (a INT CHECK (NOT (a < 0 AND a <=> 1)), b JSON, KEY ((a + 1)), FOREIGN KEY (a) REFERENCES p (id));",
		"CREATE TABLE t (a BIT(3) DEFAULT x'07', b DECIMAL(5,2) DEFAULT '1e400', c CHAR(1) DEFAULT b'1');",
		"CREATE TABLE t LIKE t; DROP INDEX `PRIMARY` ON t; ALTER TABLE t ALTER CHECK c NOT ENFORCED;",
		"DELIMITER ;;\nCREATE TRIGGER x BEFORE INSERT ON t FOR EACH ROW BEGIN END;;\nDELIMITER ;\n",
		"/*!40101 SET NAMES utf8 */; CREATE TABLE `t``x` (`a``b` INT UNIQUE);",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := sqlparse.NewParser()
		for _, dump := range []bool{false, true} {
			s, errs := FromDDL(statementsOf(p, "f.sql", text, dump))
			for _, e := range errs {
				if e.Line < 1 || e.Col < 1 || e.Msg == "" {
					t.Errorf("bad error position or message: %+v", e)
				}
			}
			for _, tb := range s.Tables {
				checkTableInvariants(t, tb)
			}
		}
	})
}

// checkTableInvariants reports what a replayed table must never show.
func checkTableInvariants(t *testing.T, tb *Table) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range tb.Columns {
		if seen[strings.ToLower(c.Name)] {
			t.Errorf("%s: duplicate column %s", tb.Name, c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		if c.Nullable && c.Default == nil {
			t.Errorf("%s.%s: NULLable column without a default", tb.Name, c.Name)
		}
	}
	var pk []string
	names := map[string]bool{}
	for _, ix := range tb.Indexes {
		if names[strings.ToLower(ix.Name)] {
			t.Errorf("%s: duplicate index name %s", tb.Name, ix.Name)
		}
		names[strings.ToLower(ix.Name)] = true
		if len(ix.Columns) == 0 {
			t.Errorf("%s: index %s without columns", tb.Name, ix.Name)
		}
		for _, c := range ix.Columns {
			if !strings.HasPrefix(c, "(") && tb.Column(c) == nil {
				t.Errorf("%s: index %s on unknown column %s", tb.Name, ix.Name, c)
			}
		}
		if ix.Primary {
			pk = ix.Columns
			for _, c := range ix.Columns {
				if col := tb.Column(c); col != nil && col.Nullable {
					t.Errorf("%s: primary key column %s is NULLable", tb.Name, c)
				}
			}
		}
	}
	if !cmp.Equal(pk, tb.PrimaryKey) && !(len(pk) == 0 && len(tb.PrimaryKey) == 0) {
		t.Errorf("%s: PrimaryKey %v, PRIMARY index %v", tb.Name, tb.PrimaryKey, pk)
	}
	for _, c := range tb.Checks {
		if c.Name == "" {
			t.Errorf("%s: unnamed check %s", tb.Name, c.Expr)
		}
	}
}

func FuzzCheckFromText(f *testing.F) {
	for _, s := range []string{
		"`qty` >= 0", "qty >= 0 AND balance > -1", "NOT (q < 0)", "NOT (q <=> 1 AND r > 0)", "NOT NOT q",
		"q BETWEEN 0 AND 5", "`status` in ('a','b')", "(q + 1) * 2 > (q)", "!(`j` regexp 'a')", "json_valid(`j`)",
		"NOT (q IS NOT NULL OR (q > 0 AND r LIKE 'x%'))", "q - -1 > 0", "-q < 5", "q >= 1e308", "\x96()",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		c, err := CheckFromText("c", expr, true)
		if err != nil || !utf8.ValidString(expr) {
			// Names that are not UTF-8 come back from the parser as '?'.
			return
		}
		// The canonical text is a fixed point: read back, it gives the same Check.
		again, err := CheckFromText("c", c.Expr, true)
		if err != nil {
			t.Fatalf("canonical text %q of %q does not parse: %v", c.Expr, expr, err)
		}
		if diff := cmp.Diff(c, again); diff != "" {
			t.Errorf("canonical form of %q is not stable (-first +second):\n%s", expr, diff)
		}
	})
}
