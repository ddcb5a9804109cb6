package golang

import (
	"go/ast"
	"go/token"
)

// goPresenceChecked reports whether the statement stmt of fn runs only when
// the value v is present: it stands directly in the body of an if whose
// condition tests v against its zero value (`in.Status != 0`, `!= ""`,
// `!= nil`, `> 0`, `len(v) > 0`), the partial update of an edit form.
func (x *goExtractor) goPresenceChecked(fn *ast.FuncDecl, stmt ast.Stmt, v ast.Expr) bool {
	if fn == nil || fn.Body == nil || stmt == nil {
		return false
	}
	want := x.exprText(v)
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found || n == nil || n.Pos() > stmt.Pos() || n.End() < stmt.End() {
			return false // only the nodes that hold stmt can hold its if
		}
		is, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		for _, s := range is.Body.List {
			if s == stmt && x.testsPresence(is.Cond, want) {
				found = true
			}
		}
		return !found
	})
	return found
}

// testsPresence reports whether cond, or one of its && operands, compares
// the expression written want with its zero value.
func (x *goExtractor) testsPresence(cond ast.Expr, want string) bool {
	b, ok := goUnparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LAND:
		return x.testsPresence(b.X, want) || x.testsPresence(b.Y, want)
	case token.NEQ, token.GTR:
	default:
		return false
	}
	l := b.X
	if c, ok := goUnparen(l).(*ast.CallExpr); ok && len(c.Args) == 1 {
		if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "len" {
			l = c.Args[0]
		}
	}
	if x.exprText(l) != want {
		return false
	}
	switch y := goUnparen(b.Y).(type) {
	case *ast.BasicLit:
		return y.Value == "0" || y.Value == `""` || y.Value == "``"
	case *ast.Ident:
		return y.Name == "nil"
	}
	return false
}

// consulted reports whether fn reads field of the variable obj before pos
// other than to assign it: the code looked at the value it overwrites.
func (x *goExtractor) consulted(fn *ast.FuncDecl, obj *goObj, field string, pos token.Pos) bool {
	if fn == nil || fn.Body == nil || obj == nil {
		return false
	}
	assigned := map[ast.Expr]bool{}
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				assigned[goUnparen(l)] = true
			}
		case *ast.SelectorExpr:
			if id, ok := s.X.(*ast.Ident); ok && s.Sel.Name == field && !assigned[s] && id.Name == obj.name && x.objOf(id) == obj {
				found = true
			}
		}
		return true
	})
	return found
}
