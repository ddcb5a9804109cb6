package sqlparse

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
)

// TestRestoreTextShortcut checks the placeholders and numbers RestoreText
// prints itself against the printer it otherwise builds, on every kind of
// literal the parser makes.
func TestRestoreTextShortcut(t *testing.T) {
	p := NewParser()
	n, err := p.Parse("SELECT ?, 0, 1, 42, 18446744073709551615, 9223372036854775807, -3, 1.5, 1e3, 'a', _latin1'b', NULL, TRUE, FALSE, x'41', b'1', 0x1F FROM t")
	if err != nil {
		t.Fatal(err)
	}
	fields := n.(*ast.SelectStmt).Fields.Fields
	for _, f := range fields {
		want := restore(f.Expr, format.RestoreStringWithoutDefaultCharset)
		if got := RestoreText(f.Expr); got != want {
			t.Errorf("RestoreText = %q, the printer %q", got, want)
		}
	}
	if len(fields) != 17 {
		t.Errorf("%d fields", len(fields))
	}
}
