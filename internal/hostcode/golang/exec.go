package golang

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/hostcode/golang/goflow"

	"github.com/guard-sql/guard/internal/stmt"
)

// goQueryMethod describes a database method that takes a query.
type goQueryMethod struct {
	arg     int  // index of the query argument on a method (ctx first for …Context)
	exec    bool // the result is a sql.Result whose RowsAffected matters
	prepare bool // returns a prepared statement running the query
}

// goQueryMethods are the methods of database/sql and sqlx that take a query.
// Get and Select are left out: the names are too common outside databases.
var goQueryMethods = map[string]goQueryMethod{
	"Exec": {0, true, false}, "MustExec": {0, true, false}, "NamedExec": {0, true, false},
	"ExecContext": {1, true, false}, "MustExecContext": {1, true, false}, "NamedExecContext": {1, true, false},
	"Query": {0, false, false}, "QueryRow": {0, false, false}, "Queryx": {0, false, false},
	"QueryRowx": {0, false, false}, "NamedQuery": {0, false, false},
	"QueryContext": {1, false, false}, "QueryRowContext": {1, false, false}, "QueryxContext": {1, false, false},
	"QueryRowxContext": {1, false, false}, "NamedQueryContext": {1, false, false},
	"Prepare": {0, false, true}, "Preparex": {0, false, true}, "PrepareNamed": {0, false, true},
	"PrepareContext": {1, false, true}, "PreparexContext": {1, false, true}, "PrepareNamedContext": {1, false, true},
}

// goStmtMethods turn a prepared statement into one bound to a transaction;
// their last argument is the statement.
var goStmtMethods = map[string]bool{
	"Stmt": true, "StmtContext": true, "Stmtx": true, "StmtxContext": true, "NamedStmt": true, "NamedStmtContext": true,
}

// callee returns the method a call names, its receiver, and how many
// arguments come before the method's own (1 for sqlx's package functions such
// as sqlx.NamedExec(db, q, arg)). A call of a variable holding a method value
// (exec := tx.ExecContext) names that method.
func (x *goExtractor) callee(call *ast.CallExpr) (name string, recv ast.Expr, shift int) {
	switch fun := goUnparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if x.pkgOf(fun) != "" {
			return fun.Sel.Name, nil, 1
		}
		return fun.Sel.Name, fun.X, 0
	case *ast.Ident:
		if !x.methodValues[fun.Name] {
			return "", nil, 0
		}
		obj := x.objOf(fun)
		if obj == nil || obj.kind != goVar {
			return "", nil, 0
		}
		as := x.assigns[obj]
		if len(as) != 1 {
			return "", nil, 0
		}
		if sel, ok := goUnparen(as[0].value()).(*ast.SelectorExpr); ok && x.pkgOf(sel) == "" {
			return sel.Sel.Name, sel.X, 0
		}
	}
	return "", nil, 0
}

// linkQueries finds the query of every database call: SQL reported earlier
// gets the call's Exec facts, and a value built at run time that reaches the
// call is reported even when it does not look like SQL.
func (x *goExtractor) linkQueries() {
	ast.Inspect(x.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name, recv, shift := x.callee(call)
		m, ok := goQueryMethods[name]
		if !ok {
			x.linkSQLArgs(call, name)
			return true
		}
		var frs []*stmt.Fragment
		if q := x.preparedQuery(recv, 0); q != nil && !m.prepare {
			frs = x.resolve(q, true) // stmt.Exec(args…): the query is the prepared one
		} else if i := m.arg + shift; i < len(call.Args) {
			frs = x.resolve(call.Args[i], true)
			x.bindExprs(call, i, frs)
			for _, fr := range frs {
				fr.ParamSources = append(fr.ParamSources, goflow.Sources(x.file, call, i)...)
			}
			x.bindSteps(call, i, frs)
			if m.exec {
				x.bindReads(call, name, i, frs)
			}
		}
		x.markSunk(frs)
		if m.exec && len(frs) > 0 {
			ex := x.execFacts(call, name)
			for _, fr := range frs {
				goMergeExec(fr, ex)
			}
		}
		return true
	})
}

// goMergeExec records the facts of one more call running the fragment: it is
// checked only if every call checks it, discarded if any call discards it.
func goMergeExec(fr *stmt.Fragment, ex *stmt.Exec) {
	if fr.Exec == nil {
		c := *ex
		fr.Exec = &c
		return
	}
	fr.Exec.ResultChecked = fr.Exec.ResultChecked && ex.ResultChecked
	fr.Exec.ResultDiscarded = fr.Exec.ResultDiscarded || ex.ResultDiscarded
}

// preparedQuery returns the query a prepared statement was made from when
// recv is one: a variable assigned from Prepare…, or tx.Stmt(stmt).
func (x *goExtractor) preparedQuery(recv ast.Expr, depth int) ast.Expr {
	if recv == nil || depth > goMaxDepth {
		return nil
	}
	switch r := goUnparen(recv).(type) {
	case *ast.Ident:
		if !x.callResults[r.Name] {
			return nil
		}
		obj := x.objOf(r)
		if obj == nil || obj.kind != goVar {
			return nil
		}
		for _, a := range x.assigns[obj] {
			call, ok := goUnparen(a.value()).(*ast.CallExpr)
			if !ok {
				continue
			}
			name, _, shift := x.callee(call)
			if m, ok := goQueryMethods[name]; ok && m.prepare && m.arg+shift < len(call.Args) {
				return call.Args[m.arg+shift]
			}
		}
	case *ast.CallExpr:
		if name, _, _ := x.callee(r); goStmtMethods[name] && len(r.Args) > 0 {
			return x.preparedQuery(r.Args[len(r.Args)-1], depth+1)
		}
	}
	return nil
}

// unwrapQuery looks through parentheses, conversions and sqlx's rewriting of
// placeholders (db.Rebind(q), sqlx.Rebind(bindType, q), sqlx.In(q, ids),
// sqlx.Named(q, arg)), which keep the SQL.
func (x *goExtractor) unwrapQuery(e ast.Expr) ast.Expr {
	for range goMaxDepth {
		e = goUnparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return e
		}
		if arg := x.conversion(call); arg != nil {
			e = arg
			continue
		}
		if len(call.Args) == 0 {
			return e
		}
		switch goCalleeName(call) {
		case "Rebind":
			e = call.Args[len(call.Args)-1]
		case "In", "Named":
			e = call.Args[0]
		default:
			return e
		}
	}
	return e
}

// goResolver follows a query expression to the fragments it may hold.
type goResolver struct {
	x *goExtractor
	// create reports a value built at run time where it is built, when it
	// reaches a database call.
	create bool
	seen   map[*goObj]bool
}

// resolve returns the fragments the query expression e may hold: the SQL
// literal or constant it is, or every value assigned to the local variable it
// names. A variable of unknown origin (a parameter) resolves to nothing.
func (x *goExtractor) resolve(e ast.Expr, create bool) []*stmt.Fragment {
	r := &goResolver{x: x, create: create, seen: map[*goObj]bool{}}
	return r.resolve(e, 0)
}

func (r *goResolver) resolve(e ast.Expr, depth int) []*stmt.Fragment {
	x := r.x
	if e == nil || depth > goMaxDepth {
		return nil
	}
	e = x.unwrapQuery(e)
	if fr := x.byNode[e]; fr != nil {
		return []*stmt.Fragment{fr}
	}
	switch e := e.(type) {
	case *ast.Ident:
		obj := x.objOf(e)
		if obj == nil || r.seen[obj] {
			return nil
		}
		r.seen[obj] = true
		switch obj.kind {
		case goCon:
			if fr := x.byConst[obj]; fr != nil {
				return []*stmt.Fragment{fr}
			}
		case goVar:
			return r.variable(e, obj, depth)
		}
		return nil
	case *ast.CallExpr:
		if sel, ok := goUnparen(e.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "String" && len(e.Args) == 0 {
			obj, kind := x.builderTarget(sel.X)
			if obj == nil {
				return nil
			}
			if fr := x.byBuilder[obj]; fr != nil {
				return []*stmt.Fragment{fr}
			}
			if r.create && kind != "" {
				fr := x.addUnchecked(e, "SQL built at run time with "+kind)
				x.byBuilder[obj] = fr
				return []*stmt.Fragment{fr}
			}
			return nil
		}
	}
	if r.create {
		if reason := x.dynamicReason(e); reason != "" {
			return []*stmt.Fragment{x.addUnchecked(e, reason)}
		}
	}
	return nil
}

// variable resolves every assignment to a local variable.
func (r *goResolver) variable(id *ast.Ident, obj *goObj, depth int) []*stmt.Fragment {
	var out []*stmt.Fragment
	for _, a := range r.x.assigns[obj] {
		if a.tok == token.ADD_ASSIGN {
			fr := r.x.byNode[a.node]
			if fr == nil && r.create {
				fr = r.x.appendFragment(obj, a.node, id.Name, nil)
			}
			if fr != nil {
				out = append(out, fr)
			}
			continue
		}
		out = append(out, r.resolve(a.value(), depth+1)...)
	}
	return out
}

// dynamicReason says how e builds a string at run time: a fmt.Sprintf or
// strings.Join call, or a + whose operands mix a string (a constant, a
// variable holding SQL) with a run-time value. "" when e is none of those; a +
// of unknown operands stays quiet, as it may add numbers (stmt.Exec(n+1)).
func (x *goExtractor) dynamicReason(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.CallExpr:
		if b, ok := x.builderOf(e); ok && b.target == nil {
			return "SQL built at run time with " + b.kind
		}
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return ""
		}
		ops := goFlattenConcat(e)
		stringy := false
		var dyn ast.Expr
		for _, op := range ops {
			if _, ok := x.constString(op); ok {
				stringy = true
				continue
			}
			if dyn == nil {
				dyn = op
			}
			if call, ok := op.(*ast.CallExpr); ok {
				if b, ok := x.builderOf(call); ok && b.target == nil {
					stringy = true
				}
			}
			if !stringy && len(x.resolve(op, false)) > 0 {
				stringy = true
			}
		}
		if !stringy || dyn == nil {
			return ""
		}
		if id, ok := ops[0].(*ast.Ident); ok && dyn == ops[0] && len(x.resolve(id, false)) > 0 {
			return "SQL built at run time by appending to `" + id.Name + "`"
		}
		return "SQL concatenated with non-constant expression `" + x.exprText(dyn) + "`"
	}
	return ""
}
