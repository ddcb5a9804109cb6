package golang

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// go-zero logic code writes through the goctl model its service context
// holds, and through the RPC clients of other services:
//
//	p, err := l.svcCtx.ProductModel.FindOne(l.ctx, in.Id)
//	p.Stock -= in.Num
//	err = l.svcCtx.ProductModel.Update(l.ctx, p)
//
//	r, err := l.svcCtx.ProductRpc.Detail(l.ctx, &product.DetailRequest{Id: in.Pid})
//	l.svcCtx.ProductRpc.Update(l.ctx, &product.UpdateRequest{Id: r.Id, Stock: r.Stock - 1})
//
// The SQL of such a call stands in the model file of another package; the
// functions here record what the calling function shows about the record
// it passes, as a MapperCall, and lint joins it to the model's statement
// (and an RPC call to the logic of the server that makes the model call).

// goRecv kinds: what the receiver of a call names.
const (
	goRecvOther = iota
	goRecvModel // l.svcCtx.ProductModel
	goRecvRPC   // l.svcCtx.ProductRpc
)

// goctlRecv classifies the receiver of a method call by the exported field
// it ends in: a name ending in Model is a goctl model (also through
// WithSession(s)), one ending in Rpc or RPC a go-zero RPC client.
func (x *goExtractor) goctlRecv(e ast.Expr) (kind int, name string) {
	for range goMaxDepth {
		switch v := goUnparen(e).(type) {
		case *ast.CallExpr:
			sel, ok := goUnparen(v.Fun).(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "WithSession" && sel.Sel.Name != "withSession") {
				return goRecvOther, ""
			}
			e = sel.X
			continue
		case *ast.SelectorExpr:
			n := v.Sel.Name
			if !ast.IsExported(n) || x.pkgOf(v) != "" {
				return goRecvOther, ""
			}
			switch {
			case strings.HasSuffix(n, "Model") && n != "Model":
				return goRecvModel, n
			case strings.HasSuffix(n, "Rpc") || strings.HasSuffix(n, "RPC"):
				return goRecvRPC, n
			}
		}
		return goRecvOther, ""
	}
	return goRecvOther, ""
}

// goctlCalls finds the model and RPC write calls of the file's functions.
func (x *goExtractor) goctlCalls() []stmt.MapperCall {
	var out []stmt.MapperCall
	for _, d := range x.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		var req goRequest
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			kind, name := x.goctlRecv(sel.X)
			if kind == goRecvOther || !goctlWriteMethod(sel.Sel.Name) {
				return true
			}
			if req.fn != fn {
				req = x.requestParam(fn)
			}
			c, ok := x.goctlCall(fn, call, kind, name, sel.Sel.Name, req)
			if ok {
				out = append(out, c)
			}
			return true
		})
	}
	return out
}

// goctlWriteMethod reports whether a model or RPC method may write a
// record: not a read, an insert (a new row loses nothing) or a transaction.
func goctlWriteMethod(m string) bool {
	for _, p := range []string{"Find", "Get", "Insert", "Trans", "Count", "Select", "List", "Query", "Detail"} {
		if strings.HasPrefix(m, p) {
			return false
		}
	}
	return true
}

// goRequest is the request parameter of a go-zero logic method, `in
// *pb.UpdateProductReq`: its object and its type qualified by import path.
type goRequest struct {
	fn   *ast.FuncDecl
	obj  *goObj
	typ  string
	name string
}

// requestParam returns the request parameter of fn when fn is a method of a
// type named …Logic taking one `in *pkg.T`.
func (x *goExtractor) requestParam(fn *ast.FuncDecl) goRequest {
	r := goRequest{fn: fn}
	if fn.Recv == nil || !strings.HasSuffix(goFuncName(fn), "Logic."+fn.Name.Name) {
		return r
	}
	ps := fn.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 {
		return r
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return r
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || x.pkgOf(sel) == "" {
		return r
	}
	r.obj, r.typ, r.name = x.objOf(ps[0].Names[0]), x.pkgOf(sel)+"."+sel.Sel.Name, sel.Sel.Name
	return r
}

// goctlCall records call when one of its arguments is a record: a struct
// literal (for an RPC, the request struct), or, for a model, a local
// variable the function reads through a model or sets fields of.
func (x *goExtractor) goctlCall(fn *ast.FuncDecl, call *ast.CallExpr, kind int, recv, method string, req goRequest) (stmt.MapperCall, bool) {
	p := x.position(call.Pos())
	c := stmt.MapperCall{
		Mapper: recv, Method: method, HostMethod: goFuncName(fn), Framework: stmt.FrameworkGoctl, Kind: stmt.CallModelMethod,
		Line: p.Line, Col: p.Column, EndLine: x.position(call.End()).Line,
	}
	for _, a := range call.Args {
		a = goUnparen(a)
		if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
			a = goUnparen(u.X)
		}
		switch a := a.(type) {
		case *ast.CompositeLit:
			pkg, typ := x.literalType(a)
			if typ == "" {
				continue
			}
			if kind == goRecvRPC {
				if pkg == "" {
					return stmt.MapperCall{}, false
				}
				c.Framework, c.Kind, c.Mapper = stmt.FrameworkGoZeroRPC, stmt.CallRequest, pkg+"."+typ
			}
			c.Entity = typ
			c.Sets = x.literalSets(a, fn, req)
		case *ast.Ident:
			if kind != goRecvModel {
				continue
			}
			obj := x.objOf(a)
			if obj == nil || obj.kind != goVar {
				continue
			}
			read := x.modelRead(obj, call.Pos())
			sets, lit := x.fieldSets(obj, read, fn, call.Pos(), req)
			if read == nil && lit == nil && len(sets) == 0 {
				continue
			}
			c.Record, c.RecordRead, c.Sets = a.Name, read, sets
			if lit != nil {
				_, c.Entity = x.literalType(lit)
			}
		default:
			continue
		}
		if kind == goRecvModel && req.obj != nil {
			c.Request = req.typ
		}
		return c, true
	}
	return stmt.MapperCall{}, false
}

// literalType is the type of a struct literal, T or pkg.T, with the import
// path of pkg; typ is "" for any other literal.
func (x *goExtractor) literalType(lit *ast.CompositeLit) (pkg, typ string) {
	switch t := lit.Type.(type) {
	case *ast.Ident:
		return "", t.Name
	case *ast.SelectorExpr:
		if path := x.pkgOf(t); path != "" {
			return path, t.Sel.Name
		}
	}
	return "", ""
}

// literalSets lists the keyed fields of a struct literal as sets.
func (x *goExtractor) literalSets(lit *ast.CompositeLit, fn *ast.FuncDecl, req goRequest) []stmt.PropertySet {
	var out []stmt.PropertySet
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil // a literal without field names: guard does not count positions
		}
		k, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		out = append(out, x.propertySet(k.Name, kv.Value, nil, fn, lit.Pos(), req))
	}
	return out
}

// propertySet classifies the value v a field is given before pos.
func (x *goExtractor) propertySet(field string, v ast.Expr, record *goObj, fn *ast.FuncDecl, pos token.Pos, req goRequest) stmt.PropertySet {
	ps := stmt.PropertySet{Property: field, Text: x.exprText(v), Line: x.position(v.Pos()).Line}
	ps.Form, ps.Read = x.goValueForm(v, pos)
	if sel, ok := goUnparen(v).(*ast.SelectorExpr); ok && sel.Sel.Name == field {
		if id, ok := sel.X.(*ast.Ident); ok {
			if obj := x.objOf(id); obj != nil {
				ps.CopiesRead = ps.Form == stmt.ValueFromRead || obj == record
				if req.obj != nil && obj == req.obj {
					ps.Param = field
				}
			}
		}
	}
	if sel, ok := goUnparen(v).(*ast.SelectorExpr); ok && req.obj != nil && ps.Param == "" {
		if id, ok := sel.X.(*ast.Ident); ok && x.objOf(id) == req.obj {
			ps.Param = sel.Sel.Name
		}
	}
	return ps
}

// goValueForm classifies a value: computed from a field of a variable read
// through a model or an RPC before pos, a literal or a constant, or other.
func (x *goExtractor) goValueForm(v ast.Expr, pos token.Pos) (stmt.ValueForm, *stmt.MapperRead) {
	var read *stmt.MapperRead
	literal := true
	ast.Inspect(v, func(n ast.Node) bool {
		if read != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				obj := x.objOf(id)
				if obj == nil && x.imports[id.Name] != "" {
					return false // pkg.Const
				}
				if obj != nil && obj.kind == goVar {
					read = x.modelRead(obj, pos)
				}
			}
			literal = false
			return read == nil
		case *ast.Ident:
			if obj := x.objOf(n); obj == nil && !(goPredeclared[n.Name] && x.universal(n)) || obj != nil && obj.kind != goCon {
				literal = false
			}
		case nil, *ast.BasicLit, *ast.ParenExpr, *ast.UnaryExpr, *ast.BinaryExpr:
		default:
			literal = false
		}
		return true
	})
	switch {
	case read != nil:
		return stmt.ValueFromRead, read
	case literal:
		return stmt.ValueLiteral, nil
	}
	return stmt.ValueOther, nil
}

// modelRead returns the read that gives variable obj its one value before
// pos: `v, err := l.svcCtx.XModel.FindOne…(…)` or any call of an RPC
// client, whose answer is the server's state; nil otherwise.
func (x *goExtractor) modelRead(obj *goObj, pos token.Pos) *stmt.MapperRead {
	var val ast.Expr
	var at token.Pos
	for _, a := range x.assigns[obj] {
		v := a.value()
		if v == nil {
			if _, ok := a.node.(*ast.ValueSpec); ok && len(a.rhs) == 0 {
				continue // var v *T: declared, not yet assigned
			}
			return nil
		}
		if val != nil {
			return nil // assigned twice: the value depends on the path
		}
		val, at = v, a.node.Pos()
	}
	call, ok := goUnparen(val).(*ast.CallExpr)
	if !ok || at >= pos {
		return nil
	}
	sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	kind, name := x.goctlRecv(sel.X)
	m := sel.Sel.Name
	if kind == goRecvOther || kind == goRecvModel && !strings.HasPrefix(m, "FindOne") {
		return nil
	}
	return &stmt.MapperRead{Variable: obj.name, Method: name + "." + m, Line: x.position(at).Line}
}

// fieldSets lists the fields of record variable obj the function sets
// before pos: by the struct literal that declares it (returned as lit),
// and by assignments `v.F = e`, `v.F -= e`, `v.F++` after that.
func (x *goExtractor) fieldSets(obj *goObj, read *stmt.MapperRead, fn *ast.FuncDecl, pos token.Pos, req goRequest) (sets []stmt.PropertySet, lit *ast.CompositeLit) {
	from := fn.Body.Pos()
	for _, a := range x.assigns[obj] {
		v := a.value()
		if v == nil {
			continue
		}
		if u, ok := goUnparen(v).(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = u.X
		}
		if l, ok := goUnparen(v).(*ast.CompositeLit); ok && lit == nil && a.node.Pos() < pos {
			lit, from = l, a.node.Pos()
			sets = x.literalSets(l, fn, req)
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= pos {
			return false
		}
		if n.Pos() < from {
			return true
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) != len(s.Rhs) {
				return true
			}
			for i, l := range s.Lhs {
				field, ok := x.fieldOf(l, obj)
				if !ok {
					continue
				}
				if s.Tok == token.ASSIGN {
					ps := x.propertySet(field, s.Rhs[i], obj, fn, pos, req)
					ps.Optional = x.goPresenceChecked(fn, s, s.Rhs[i])
					ps.Consulted = x.consulted(fn, obj, field, s.Pos())
					sets = append(sets, ps)
					continue
				}
				sets = append(sets, x.stepSet(field, l, s.Tok.String()[:1]+" "+x.exprText(s.Rhs[i]), read))
			}
		case *ast.IncDecStmt:
			if field, ok := x.fieldOf(s.X, obj); ok {
				sets = append(sets, x.stepSet(field, s.X, s.Tok.String()[:1]+" 1", read))
			}
		}
		return true
	})
	return sets, lit
}

// stepSet is `v.F op= e` or `v.F++`: computed from the record's own field,
// so from the read when the record was read.
func (x *goExtractor) stepSet(field string, lhs ast.Expr, step string, read *stmt.MapperRead) stmt.PropertySet {
	ps := stmt.PropertySet{Property: field, Text: x.exprText(lhs) + " " + step, Line: x.position(lhs.Pos()).Line}
	if read != nil {
		ps.Form, ps.Read = stmt.ValueFromRead, read
	}
	return ps
}

// fieldOf returns F when e is `v.F` of variable obj.
func (x *goExtractor) fieldOf(e ast.Expr, obj *goObj) (string, bool) {
	sel, ok := goUnparen(e).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || id.Name != obj.name || x.objOf(id) != obj {
		return "", false
	}
	return sel.Sel.Name, true
}

// goctlFields lists the struct fields of the file whose type is a goctl
// model of another package (`OrderModel model.OrdersModel` in a service
// context), by field name: a logic call names the field, the model's
// statements are indexed by the type.
func (x *goExtractor) goctlFields() map[string]string {
	var out map[string]string
	ast.Inspect(x.file, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || st.Fields == nil {
			return true
		}
		for _, f := range st.Fields.List {
			sel, ok := f.Type.(*ast.SelectorExpr)
			if !ok || x.pkgOf(sel) == "" || !strings.HasSuffix(sel.Sel.Name, "Model") {
				continue
			}
			for _, n := range f.Names {
				if n.Name != sel.Sel.Name {
					if out == nil {
						out = map[string]string{}
					}
					out[n.Name] = sel.Sel.Name
				}
			}
		}
		return true
	})
	return out
}
