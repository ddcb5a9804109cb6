package goflow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestNegated tells the negated amounts a call may pass from the rest.
func TestNegated(t *testing.T) {
	for src, want := range map[string]bool{
		"-n": true, "-1*order.Num": true, "n * -1": true, "0 - n": true, "(-n)": true,
		"n": false, "n - 1": false, "10 - n": false, "-1": true, "a * b": false,
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := negated(e); got != want {
			t.Errorf("negated(%s) = %v, want %v", src, got, want)
		}
	}
	for src, want := range map[string]bool{
		"f(a, -n)": true, "f(-n)": true, "f(a, 0 - n)": true, "x := -n": false, "a - b": false, "f(10 - n)": false,
	} {
		if got := MayNegate([]byte(src)); got != want {
			t.Errorf("MayNegate(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestSources finds the placeholders bound to a parameter of their function,
// directly or through a gorm.Expr.
func TestSources(t *testing.T) {
	src := `package p
func Move(db DB, id int64, delta int) error {
	return db.Exec("UPDATE t SET n = ? WHERE id = ?", gorm.Expr("n + ?", delta), id).Error
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var call *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && callName(c) == "Exec" {
			call = c
		}
		return true
	})
	got := Sources(f, call, 0)
	if len(got) != 2 || got[0].Param != 0 || got[0].Arg != 2 || got[0].Func != "Move" || got[0].Params != 3 || got[1].Param != 1 || got[1].Arg != 1 {
		t.Errorf("Sources = %+v", got)
	}
}
