package golang

import (
	"go/ast"
	"go/token"
	"slices"

	"github.com/guard-sql/guard/internal/stmt"
)

// bindSteps records, for the fragments a database call runs, which of the
// arguments it binds to their placeholders is another plus one (see
// ParamStep). query is the argument holding the statement; the arguments
// after it are bound to the placeholders in order. A fragment run by several
// calls keeps the steps every one of them shows.
func (x *goExtractor) bindSteps(call *ast.CallExpr, query int, frs []*stmt.Fragment) {
	if len(frs) == 0 || call.Ellipsis.IsValid() || query >= len(call.Args) {
		return
	}
	args := call.Args[query+1:]
	var steps []stmt.ParamStep
	if len(args) > 1 {
		fn := x.outerFunc(call)
		for i, a := range args {
			for j, b := range args {
				if i != j && fn != nil && x.plusOne(fn, call, a, b) {
					steps = append(steps, stmt.ParamStep{Param: i, From: j})
				}
			}
		}
	}
	for _, fr := range frs {
		if fr.Unchecked != "" {
			continue
		}
		if !x.bound[fr] {
			x.bound[fr] = true
			fr.ParamSteps = steps
			continue
		}
		fr.ParamSteps = slices.DeleteFunc(fr.ParamSteps, func(s stmt.ParamStep) bool { return !slices.Contains(steps, s) })
	}
}

// outerFunc is the function declaration n stands in, past closures: the
// variables a closure binds are declared there.
func (x *goExtractor) outerFunc(n ast.Node) *ast.FuncDecl {
	for p := x.parent[n]; p != nil; p = x.parent[p] {
		if d, ok := p.(*ast.FuncDecl); ok {
			return d
		}
	}
	return nil
}

// goPath is a variable or a field path of one (data.Version), by the
// declaration its first name refers to.
type goPath struct {
	root *goObj
	path string
}

func (x *goExtractor) pathOf(e ast.Expr) (goPath, bool) {
	switch e := goUnparen(e).(type) {
	case *ast.Ident:
		obj := x.objOf(e)
		if obj == nil || obj.kind != goVar {
			return goPath{}, false
		}
		return goPath{root: obj, path: e.Name}, true
	case *ast.SelectorExpr:
		p, ok := x.pathOf(e.X)
		if !ok {
			return goPath{}, false
		}
		return goPath{root: p.root, path: p.path + "." + e.Sel.Name}, true
	}
	return goPath{}, false
}

// plusOne reports whether fn shows that a, bound at call, holds b plus one.
// Either a is `b + 1` (both are evaluated at the call); or b is a variable
// assigned once from a path P (old := data.Version), a is P, and fn changes P
// once, by adding one (data.Version += 1, ++, = P + 1), after b's assignment
// and before the call, outside any loop, and hands neither P nor what holds
// it (data) to anything that could change it.
func (x *goExtractor) plusOne(fn *ast.FuncDecl, call *ast.CallExpr, a, b ast.Expr) bool {
	if bin, ok := goUnparen(a).(*ast.BinaryExpr); ok && bin.Op == token.ADD && goIsOne(bin.Y) {
		pa, ok1 := x.pathOf(bin.X)
		pb, ok2 := x.pathOf(b)
		return ok1 && ok2 && pa == pb
	}
	pa, ok := x.pathOf(a)
	if !ok {
		return false
	}
	old, ok := goUnparen(b).(*ast.Ident)
	if !ok {
		return false
	}
	oldObj := x.objOf(old)
	if oldObj == nil || oldObj.kind != goVar {
		return false
	}
	as := x.assigns[oldObj]
	if len(as) != 1 || as[0].tok == token.ADD_ASSIGN {
		return false
	}
	if from, ok := x.pathOf(as[0].value()); !ok || from != pa {
		return false
	}
	def := as[0].node
	if ws := x.writesOf(fn, goPath{root: oldObj, path: old.Name}); len(ws) > 1 || len(ws) == 1 && ast.Node(ws[0]) != def {
		return false
	}
	ws := x.writesOf(fn, pa)
	if len(ws) != 1 || !x.incrementsByOne(ws[0], pa) || x.inLoop(ws[0], fn) || x.inLoop(def, fn) {
		return false
	}
	if !(def.End() <= ws[0].Pos() && ws[0].End() <= call.Pos()) {
		return false
	}
	return !x.handsOut(fn, call, pa)
}

// inLoop reports whether n stands in a loop of fn.
func (x *goExtractor) inLoop(n ast.Node, fn *ast.FuncDecl) bool {
	for p := x.parent[n]; p != nil && p != ast.Node(fn); p = x.parent[p] {
		switch p.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// handsOut reports whether fn, other than at call, takes the address of p or
// of what holds it, or passes what holds it to a call or a method of it.
func (x *goExtractor) handsOut(fn *ast.FuncDecl, call *ast.CallExpr, p goPath) bool {
	holds := func(e ast.Expr) bool {
		q, ok := x.pathOf(e)
		return ok && q.root == p.root && (q.path == p.path || goPathUnder(p.path, q.path))
	}
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.AND && holds(n.X) {
				found = true
			}
		case *ast.CallExpr:
			if n == call {
				return true
			}
			if sel, ok := goUnparen(n.Fun).(*ast.SelectorExpr); ok && holds(sel.X) {
				found = true
			}
			for _, a := range n.Args {
				if q, ok := x.pathOf(a); ok && q.root == p.root && goPathUnder(p.path, q.path) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// writesOf lists the statements of fn that assign p, a path into p or a path
// p lies in (data = other changes data.Version too).
func (x *goExtractor) writesOf(fn *ast.FuncDecl, p goPath) []ast.Stmt {
	var out []ast.Stmt
	touches := func(e ast.Expr) bool {
		q, ok := x.pathOf(e)
		if !ok || q.root != p.root {
			return false
		}
		return q.path == p.path || goPathUnder(q.path, p.path) || goPathUnder(p.path, q.path)
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if slices.ContainsFunc(s.Lhs, touches) {
				out = append(out, s)
			}
		case *ast.IncDecStmt:
			if touches(s.X) {
				out = append(out, s)
			}
		case *ast.RangeStmt:
			if s.Key != nil && touches(s.Key) || s.Value != nil && touches(s.Value) {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// goPathUnder reports whether path q lies inside path p (data.A.B in data).
func goPathUnder(q, p string) bool {
	return len(q) > len(p) && q[:len(p)] == p && q[len(p)] == '.'
}

// incrementsByOne reports whether s adds one to p: p++, p += 1, p = p + 1.
func (x *goExtractor) incrementsByOne(s ast.Stmt, p goPath) bool {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		return s.Tok == token.INC
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return false
		}
		if l, ok := x.pathOf(s.Lhs[0]); !ok || l != p {
			return false
		}
		switch s.Tok {
		case token.ADD_ASSIGN:
			return goIsOne(s.Rhs[0])
		case token.ASSIGN:
			bin, ok := goUnparen(s.Rhs[0]).(*ast.BinaryExpr)
			if !ok || bin.Op != token.ADD || !goIsOne(bin.Y) {
				return false
			}
			r, ok := x.pathOf(bin.X)
			return ok && r == p
		}
	}
	return false
}

// goIsOne reports whether e is the literal 1.
func goIsOne(e ast.Expr) bool {
	lit, ok := goUnparen(e).(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "1"
}
