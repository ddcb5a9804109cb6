package golang

import (
	"go/ast"
	"go/token"
	"slices"

	"github.com/guard-sql/guard/internal/stmt"
)

// execFacts tells what the function around an Exec-like call does with its
// result.
//
// Discarded: the call is a statement of its own (also go/defer), or its
// result goes to _. Checked: the result's RowsAffected() value is compared
// (==, !=, <, >, <=, >=), is a switch tag, or is assigned to a variable that
// is; also when the result, or the RowsAffected() value, leaves the function
// (returned, passed to a helper, stored in a field or a literal): the caller
// or the helper may check it, and guard does not follow it there. Uses are
// found through go/types, so they are the ones of the innermost function
// (or closure) declaring the variable.
func (x *goExtractor) execFacts(call *ast.CallExpr, method string) *stmt.Exec {
	ex := &stmt.Exec{Method: method}
	seen := map[*goObj]bool{}
	child, p := x.up(call)
	switch p := p.(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		ex.ResultDiscarded = true
	case *ast.AssignStmt:
		x.resultInto(ex, goAssigned(p.Lhs, p.Rhs, child), seen)
	case *ast.ValueSpec:
		x.resultInto(ex, goAssigned(goIdentExprs(p.Names), p.Values, child), seen)
	case *ast.ReturnStmt, *ast.CompositeLit, *ast.KeyValueExpr, *ast.SendStmt:
		ex.ResultChecked = true
	case *ast.CallExpr:
		ex.ResultChecked = ast.Node(p.Fun) != child
	case *ast.SelectorExpr:
		// sqlx's MustExec returns the result alone: db.MustExec(q).RowsAffected()
		ex.ResultChecked = x.rowsAffectedCompared(p, seen)
	}
	return ex
}

// goAssigned returns the left-hand side that receives value in an assignment;
// for a call returning several values, the first (the result, before err).
func goAssigned(lhs, rhs []ast.Expr, value ast.Node) ast.Expr {
	if len(lhs) == 0 {
		return nil
	}
	if len(rhs) == 1 {
		if ast.Node(rhs[0]) == value {
			return lhs[0]
		}
		return nil
	}
	for i, r := range rhs {
		if ast.Node(r) == value && i < len(lhs) {
			return lhs[i]
		}
	}
	return nil
}

func goIdentExprs(ids []*ast.Ident) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// resultInto records what happens to a result assigned to target.
func (x *goExtractor) resultInto(ex *stmt.Exec, target ast.Expr, seen map[*goObj]bool) {
	switch t := target.(type) {
	case nil:
	case *ast.Ident:
		if t.Name == "_" {
			ex.ResultDiscarded = true
		} else if obj := x.objOf(t); obj != nil {
			ex.ResultChecked = x.resultChecked(obj, seen)
		}
	default:
		ex.ResultChecked = true // stored in a field or an element: it leaves the function
	}
}

// isAssignTarget reports whether id is written rather than read.
func (x *goExtractor) isAssignTarget(id *ast.Ident) bool {
	switch p := x.parent[id].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == ast.Expr(id) {
				return true
			}
		}
	case *ast.ValueSpec:
		return slices.Contains(p.Names, id)
	case *ast.RangeStmt:
		return p.Key == ast.Expr(id) || p.Value == ast.Expr(id)
	}
	return false
}

// resultChecked reports whether the result held by variable obj is checked.
func (x *goExtractor) resultChecked(obj *goObj, seen map[*goObj]bool) bool {
	if seen[obj] {
		return false
	}
	seen[obj] = true
	for _, id := range x.uses[obj] {
		if x.isAssignTarget(id) {
			continue
		}
		child, p := x.up(id)
		switch p := p.(type) {
		case *ast.SelectorExpr:
			if x.rowsAffectedCompared(p, seen) {
				return true
			}
		case *ast.CallExpr:
			if ast.Node(p.Fun) != child {
				return true // given to a helper
			}
		case *ast.ReturnStmt, *ast.CompositeLit, *ast.KeyValueExpr, *ast.SendStmt:
			return true
		case *ast.AssignStmt:
			if x.aliasChecked(goAssigned(p.Lhs, p.Rhs, child), seen, x.resultChecked) {
				return true
			}
		case *ast.ValueSpec:
			if x.aliasChecked(goAssigned(goIdentExprs(p.Names), p.Values, child), seen, x.resultChecked) {
				return true
			}
		}
	}
	return false
}

// aliasChecked follows a value copied to target: into a variable, whose uses
// are checked with follow; anywhere else (a field), it leaves the function.
func (x *goExtractor) aliasChecked(target ast.Expr, seen map[*goObj]bool, follow func(*goObj, map[*goObj]bool) bool) bool {
	switch t := target.(type) {
	case nil:
		return false
	case *ast.Ident:
		if t.Name == "_" {
			return false
		}
		obj := x.objOf(t)
		return obj != nil && follow(obj, seen)
	}
	return true
}

// rowsAffectedCompared reports whether sel is res.RowsAffected, called (or
// read as GORM's field), and the count compared.
func (x *goExtractor) rowsAffectedCompared(sel *ast.SelectorExpr, seen map[*goObj]bool) bool {
	if sel.Sel.Name != "RowsAffected" {
		return false
	}
	if call, ok := x.parent[sel].(*ast.CallExpr); ok && call.Fun == ast.Expr(sel) {
		return x.countCompared(call, seen)
	}
	// GORM's *gorm.DB holds the count in a field: res.RowsAffected == 0.
	return x.countCompared(sel, seen)
}

// countCompared reports whether the row count e (the RowsAffected() call or a
// variable holding it) is compared, switched on, or returned. Passing it to a
// function does not count: logging it checks nothing.
func (x *goExtractor) countCompared(e ast.Expr, seen map[*goObj]bool) bool {
	child, p := x.up(e)
	switch p := p.(type) {
	case *ast.BinaryExpr:
		switch p.Op {
		case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
			return true
		}
	case *ast.SwitchStmt:
		return p.Tag == child
	case *ast.ReturnStmt:
		return true
	case *ast.AssignStmt:
		if id, ok := goAssigned(p.Lhs, p.Rhs, child).(*ast.Ident); ok {
			return x.aliasChecked(id, seen, x.countVarCompared)
		}
	case *ast.ValueSpec:
		if id, ok := goAssigned(goIdentExprs(p.Names), p.Values, child).(*ast.Ident); ok {
			return x.aliasChecked(id, seen, x.countVarCompared)
		}
	}
	return false
}

// countVarCompared reports whether a variable holding a row count is compared.
func (x *goExtractor) countVarCompared(obj *goObj, seen map[*goObj]bool) bool {
	if seen[obj] {
		return false
	}
	seen[obj] = true
	for _, id := range x.uses[obj] {
		if !x.isAssignTarget(id) && x.countCompared(id, seen) {
			return true
		}
	}
	return false
}
