package golang

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/stmt"
)

// goReadMethods are the calls that fill a variable from the database, with
// the index of the argument they fill: GORM's finishers (db.First(&p, id),
// db.Where(…).Take(&p)), sqlx's Get and StructScan, and Scan.
var goReadMethods = map[string]int{
	"First": 0, "Take": 0, "Last": 0, "Find": 0, "Scan": 0, "FirstOrInit": 0,
	"Get": 0, "GetContext": 1, "StructScan": 0,
}

// readOf returns the last read that fills variable obj (`&p`, `p`, or a
// field `&p.Stock`) before pos in the function holding at, or nil.
func (x *goExtractor) readOf(obj *goObj, at ast.Node, pos token.Pos) *stmt.MapperRead {
	if obj == nil || obj.kind != goVar {
		return nil
	}
	fn := x.outerFunc(at)
	var best *stmt.MapperRead
	var bestPos token.Pos
	for _, id := range x.uses[obj] {
		if id.Pos() >= pos || (fn != nil && (id.Pos() < fn.Pos() || id.End() > fn.End())) {
			continue
		}
		var arg ast.Node = id
		if sel, ok := x.parent[arg].(*ast.SelectorExpr); ok && sel.X == ast.Expr(id) {
			arg = sel
		}
		if u, ok := x.parent[arg].(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = u
		}
		call, ok := x.parent[arg].(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		k, ok := goReadMethods[sel.Sel.Name]
		if !ok || k >= len(call.Args) || ast.Node(call.Args[k]) != arg && sel.Sel.Name != "Scan" {
			continue
		}
		if sel.Sel.Name == "Scan" && !goArgOf(call, arg) {
			continue
		}
		if id.Pos() > bestPos {
			best = &stmt.MapperRead{Variable: id.Name, Method: sel.Sel.Name, Line: x.position(call.Pos()).Line}
			bestPos = id.Pos()
		}
	}
	return best
}

func goArgOf(call *ast.CallExpr, n ast.Node) bool {
	for _, a := range call.Args {
		if ast.Node(a) == n {
			return true
		}
	}
	return false
}

// valueRead finds, in a value expression standing at pos, a field of a
// variable read before (`p.Stock - n`) or a variable read itself: the read
// and the field ("" for the variable itself). nil when the value uses no
// read.
func (x *goExtractor) valueRead(e ast.Expr, pos token.Pos) (read *stmt.MapperRead, field string) {
	ast.Inspect(e, func(n ast.Node) bool {
		if read != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if r := x.readOf(x.objOf(id), n, pos); r != nil {
					read, field = r, n.Sel.Name
				}
				return false
			}
		case *ast.Ident:
			if r := x.readOf(x.objOf(n), n, pos); r != nil {
				read = r
			}
		case *ast.FuncLit:
			return false
		}
		return true
	})
	return read, field
}

// goDecrementOf reports whether e is `v.F - …` (or v.F -= … when op is
// SUB_ASSIGN), a value lower than the field it starts from; it returns the
// variable and the field.
func goDecrementOf(e ast.Expr) (v *ast.Ident, field string, ok bool) {
	b, isBin := goUnparen(e).(*ast.BinaryExpr)
	if !isBin || b.Op != token.SUB {
		return nil, "", false
	}
	sel, isSel := goUnparen(b.X).(*ast.SelectorExpr)
	if !isSel {
		return nil, "", false
	}
	id, isID := sel.X.(*ast.Ident)
	if !isID {
		return nil, "", false
	}
	return id, sel.Sel.Name, true
}
