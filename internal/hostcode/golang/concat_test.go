package golang

import (
	"fmt"
	"strings"
	"testing"
)

// TestExtractGoLongConcat folds a concatenation of 10,000 constants into one
// fragment, every operand at its own column, and one past the folding limits
// into none.
func TestExtractGoLongConcat(t *testing.T) {
	src := func(n int) (string, string) {
		terms := make([]string, n)
		var want strings.Builder
		want.WriteString("UPDATE t SET a = 1 WHERE id = 1 ")
		for i := range terms {
			terms[i] = fmt.Sprintf("\"AND a%d = 1 \"", i)
			want.WriteString(fmt.Sprintf("AND a%d = 1 ", i))
		}
		line := "\tdb.Exec(\"UPDATE t SET a = 1 WHERE id = 1 \" + " + strings.Join(terms, " + ") + ")"
		return "package p\n\nimport \"database/sql\"\n\nfunc f(db *sql.DB) {\n" + line + "\n}\n", want.String()
	}
	code, want := src(10_000)
	f := ExtractGo("dao.go", []byte(code))
	if len(f.Fragments) != 1 || f.Fragments[0].SQL != want {
		t.Fatalf("got %d fragments, want one with the folded SQL", len(f.Fragments))
	}
	fr := f.Fragments[0]
	last := strings.LastIndex(want, "AND a9999")
	lineText := strings.Split(code, "\n")[5]
	if line, col := fr.Pos(last); line != 6 || col != strings.Index(lineText, `"AND a9999`)+2 {
		t.Errorf("last operand at %d:%d, want 6:%d", line, col, strings.Index(lineText, `"AND a9999`)+2)
	}
	code, _ = src(goMaxConstSegs + 1)
	if f := ExtractGo("dao.go", []byte(code)); len(f.Fragments) != 0 {
		t.Errorf("past the folding limits: %d fragments, want none", len(f.Fragments))
	}
}
