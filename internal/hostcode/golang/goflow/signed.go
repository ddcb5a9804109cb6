package goflow

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/stmt"
)

// Signed amounts: `UPDATE goods SET inventory = inventory + ? WHERE id = ?`
// run with a parameter of its function is a decrement when a caller
// passes that parameter negated (`-1 * order.PurchaseNum`). The reader
// records both halves — which placeholders bind which parameter, and which
// calls pass a negated argument — and the lint driver joins them.

// Sources returns the placeholders of the statement an Exec-like call of f
// runs (its query at argument query) that bind a parameter of the
// function making the call: the argument itself, or the one value of a
// gorm.Expr bound there.
func Sources(f *ast.File, call *ast.CallExpr, query int) []stmt.ParamSource {
	fd := enclosing(f, call)
	if fd == nil || fd.Type.Params == nil || query+1 >= len(call.Args) {
		return nil
	}
	var out []stmt.ParamSource
	for k, a := range call.Args[query+1:] {
		if e, ok := ast.Unparen(a).(*ast.CallExpr); ok && callName(e) == "Expr" && len(e.Args) == 2 {
			a = e.Args[1]
		}
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if j := paramIndex(fd, id.Name); j >= 0 {
				out = append(out, stmt.ParamSource{Param: k, Arg: j, Func: fd.Name.Name, Params: paramCount(fd)})
			}
		}
	}
	return out
}

// enclosing is the function declaration of f that n stands in.
func enclosing(f *ast.File, n ast.Node) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= n.Pos() && n.End() <= fd.End() {
			return fd
		}
	}
	return nil
}

// paramCount is how many parameters fd takes.
func paramCount(fd *ast.FuncDecl) int {
	n := 0
	for _, f := range fd.Type.Params.List {
		n += max(len(f.Names), 1)
	}
	return n
}

// paramIndex is the position of parameter name among fd's, -1 for none.
func paramIndex(fd *ast.FuncDecl, name string) int {
	i := 0
	for _, f := range fd.Type.Params.List {
		if len(f.Names) == 0 {
			i++
		}
		for _, n := range f.Names {
			if n.Name == name {
				return i
			}
			i++
		}
	}
	return -1
}

// appendNegated appends to out the arguments of call that are negated
// amounts; Contexts calls it for every call of a function body.
func appendNegated(out []stmt.NegatedArg, fset *token.FileSet, call *ast.CallExpr, path string, src []byte) []stmt.NegatedArg {
	name := callName(call)
	if name == "" {
		return out
	}
	for j, a := range call.Args {
		if negated(a) {
			s, e := fset.Position(a.Pos()), fset.Position(a.End())
			text := ""
			if s.Offset >= 0 && e.Offset <= len(src) && s.Offset < e.Offset {
				text = string(src[s.Offset:e.Offset])
			}
			out = append(out, stmt.NegatedArg{Func: name, Arg: j, Args: len(call.Args), Text: text, File: path, Line: s.Line})
		}
	}
	return out
}

// negated reports whether e is a negated amount: -n, -1 * n, n * -1 or
// 0 - n.
func negated(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return e.Op == token.SUB
	case *ast.BinaryExpr:
		switch e.Op {
		case token.MUL:
			return minusOne(e.X) || minusOne(e.Y)
		case token.SUB:
			lit, ok := ast.Unparen(e.X).(*ast.BasicLit)
			return ok && lit.Value == "0"
		}
	}
	return false
}

// minusOne reports whether e is the literal -1.
func minusOne(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.SUB {
		return false
	}
	lit, ok := ast.Unparen(u.X).(*ast.BasicLit)
	return ok && lit.Value == "1"
}

// MayNegate reports whether src may pass a negated amount to a call: a
// '-' right after '(' or ',' (-n, -1*n), or 0 - n there. A file for which
// it is false needs no walk for NegatedArgs.
func MayNegate(src []byte) bool {
	for i, c := range src {
		if c != '-' {
			continue
		}
		j := i - 1
		for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
			j--
		}
		if j >= 0 && src[j] == '0' {
			for j--; j >= 0 && (src[j] == ' ' || src[j] == '\t'); j-- {
			}
		}
		if j >= 0 && (src[j] == '(' || src[j] == ',') {
			return true
		}
	}
	return false
}
