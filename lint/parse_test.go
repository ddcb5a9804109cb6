package lint

import (
	"testing"

	"github.com/guard-sql/guard/internal/source"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// TestParseBatch checks that a fragment of valid statements is parsed in one
// call with every node at its piece, and that one bad statement falls back to
// statement-by-statement parsing with the error on that statement alone.
func TestParseBatch(t *testing.T) {
	p := sqlparse.NewParser()
	good := "-- lead\nSELECT 1;\n/* c */ UPDATE t SET a = a - 1 WHERE id = 2 AND a >= 1; # x\nDELETE FROM t WHERE id = 3"
	pieces := sqlparse.SplitScript(good)
	if nodes := parseBatch(p, good, pieces); len(nodes) != 3 {
		t.Fatalf("batch parse of valid statements gave %d nodes, want 3", len(nodes))
	}
	bad := "SELECT 1;\nUPDATE t SET a = WHERE id = 1;\nSELECT 3;"
	if nodes := parseBatch(p, bad, sqlparse.SplitScript(bad)); nodes != nil {
		t.Fatal("batch parse accepted a text with a bad statement")
	}
	f := source.ExtractSQL("q.sql", []byte(bad))
	stmts := parseFile(p, f)
	if len(stmts) != 3 || stmts[0].Node == nil || stmts[1].ParseErr == nil || stmts[2].Node == nil {
		t.Fatalf("fallback: %+v", stmts)
	}
	if line, col := stmts[1].ErrPos(); line != 2 || col != 18 {
		t.Errorf("error at %d:%d, want 2:18", line, col)
	}
}
