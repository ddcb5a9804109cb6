package driver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// TestParseMigrationChunks reads a migration longer than a chunk, with DDL,
// comments, a statement that does not parse and a trigger across chunk
// boundaries, as parseFile does, except that the data statements that parse
// are counted, not kept.
func TestParseMigrationChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("CREATE TABLE t_big (id BIGINT NOT NULL PRIMARY KEY, qty INT NOT NULL);\n")
	for i := 1; i <= 3*migrationChunk; i++ {
		switch i {
		case migrationChunk - 1:
			b.WriteString("ALTER TABLE t_big ADD COLUMN note VARCHAR(20) NULL, ALGORITHM=INSTANT;\n")
		case migrationChunk + 3:
			b.WriteString("INSERT INTO t_big VALUES (1, ;\n") // does not parse
		case 2 * migrationChunk:
			b.WriteString("-- a comment\nCREATE INDEX ix_qty ON t_big (qty);\n")
		case 2*migrationChunk + 5:
			b.WriteString("UPDATE t_big SET qty = 0 WHERE id = 2;\n")
		}
		fmt.Fprintf(&b, "INSERT INTO t_big (id, qty)\n  VALUES (%d, %d);\n", i, i%7)
	}
	b.WriteString("DELIMITER $$\nCREATE TRIGGER tr BEFORE INSERT ON t_big FOR EACH ROW BEGIN SET NEW.qty = 1; END$$\nDELIMITER ;\n")
	f := sqlfile.ExtractSQL("000001_big.up.sql", []byte(b.String()))
	want := parseFile(sqlparse.NewParser(), f, nil)
	got, data := parseMigration(sqlparse.NewParser(), f)
	trees, wantData, j := 0, 0, 0
	for i, w := range want {
		if _, dml := w.Node.(sqlparse.DMLNode); dml {
			wantData++ // a data statement that parses: counted, not kept
			continue
		}
		if j == len(got) {
			t.Fatalf("statement %d %q is missing", i, w.SQL)
		}
		g := got[j]
		j++
		if g.SQL != w.SQL || g.Offset != w.Offset || g.Line != w.Line || g.Column != w.Column || g.EndLine != w.EndLine || g.Fragment != w.Fragment {
			t.Errorf("statement %d: %q at %d:%d-%d, want %q at %d:%d-%d", i, g.SQL, g.Line, g.Column, g.EndLine, w.SQL, w.Line, w.Column, w.EndLine)
		}
		if (g.ParseErr == nil) != (w.ParseErr == nil) || g.ParseErr != nil && *g.ParseErr != *w.ParseErr {
			t.Errorf("statement %d %q: parse error %v, want %v", i, g.SQL, g.ParseErr, w.ParseErr)
		}
		switch {
		case (g.Node == nil) != (w.Node == nil):
			t.Errorf("statement %d %q: node %T, want %T", i, g.SQL, g.Node, w.Node)
		case g.Node != nil:
			trees++
			if gs, ws := sqlparse.Restore(g.Node), sqlparse.Restore(w.Node); gs != ws {
				t.Errorf("statement %d: tree %q, want %q", i, gs, ws)
			}
		}
	}
	if j != len(got) {
		t.Errorf("%d statements kept, want %d", len(got), j)
	}
	if data != wantData || data < 3*migrationChunk {
		t.Errorf("%d data statements counted, want %d", data, wantData)
	}
	if trees != 3 {
		t.Errorf("%d DDL trees kept, want 3 (CREATE TABLE, ALTER TABLE, CREATE INDEX)", trees)
	}
}
