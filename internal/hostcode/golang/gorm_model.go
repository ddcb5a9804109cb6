package golang

import (
	"go/ast"
	"go/token"
	"strings"
)

// Which model, and which of its fields, a GORM call writes.

// gormModelOf returns the model a Model(…) argument names: &T{…}, T{},
// new(T), or a variable of type T or *T.
func (x *goExtractor) gormModelOf(e ast.Expr) *GoModel {
	e = goUnparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = goUnparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return x.gormModelOfType(e.Type)
	case *ast.CallExpr:
		if id, ok := goUnparen(e.Fun).(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			return x.gormModelOfType(e.Args[0])
		}
	case *ast.Ident:
		return x.gormVarModel(e)
	}
	return nil
}

// gormModelOfType returns the model a type expression names (T, *T, pkg.T).
func (x *goExtractor) gormModelOfType(t ast.Expr) *GoModel {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return x.runModels().Lookup(x.dir, "", t.Name)
	case *ast.SelectorExpr:
		id, ok := t.X.(*ast.Ident)
		if !ok || x.imports[id.Name] == "" {
			return nil
		}
		return x.runModels().Lookup(x.dir, x.imports[id.Name], t.Sel.Name)
	}
	return nil
}

// gormVarModel returns the model of a variable's declared type: `var p T`,
// `p := T{…}`, `p := &T{}`, `p := new(T)`, a parameter `p *T`.
func (x *goExtractor) gormVarModel(id *ast.Ident) *GoModel {
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar {
		return nil
	}
	switch d := obj.decl.(type) {
	case *ast.Field:
		return x.gormModelOfType(d.Type)
	case *ast.ValueSpec:
		if d.Type != nil {
			return x.gormModelOfType(d.Type)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && i < len(d.Values) {
				return x.gormModelOf(d.Values[i])
			}
		}
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			if l, ok := l.(*ast.Ident); ok && l.Name == id.Name && i < len(d.Rhs) && len(d.Lhs) == len(d.Rhs) {
				v := goUnparen(d.Rhs[i])
				if _, isIdent := v.(*ast.Ident); isIdent {
					return nil
				}
				return x.gormModelOf(v)
			}
		}
	}
	return nil
}

// gormField finds a model field by Go name or column name.
func (x *goExtractor) gormField(md *GoModel, name string) *GoModelField {
	fields := x.runModels().AllFields(md)
	for i := range fields {
		if fields[i].Name == name {
			return &fields[i]
		}
	}
	for i := range fields {
		if strings.EqualFold(fields[i].Column, name) {
			return &fields[i]
		}
	}
	return nil
}

func goHasPrimaryKey(fields []GoModelField) bool {
	for _, f := range fields {
		if f.PrimaryKey {
			return true
		}
	}
	return false
}

// gormModelKeyed reports whether a Model(…) argument carries its primary
// key, which GORM adds to the WHERE: a variable (a record read or passed
// in), or a literal that sets the key field.
func (x *goExtractor) gormModelKeyed(e ast.Expr, fields []GoModelField) bool {
	e = goUnparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = goUnparen(u.X)
	}
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			k, _ := kv.Key.(*ast.Ident)
			if k == nil || goZeroLiteral(kv.Value) {
				continue
			}
			for _, f := range fields {
				if f.Name == k.Name && (f.PrimaryKey || !goHasPrimaryKey(fields) && f.Column == "id") {
					return true
				}
			}
		}
	}
	return false
}

// gormHandle reports whether the root of a chain is declared as a GORM
// handle in the function: a parameter or variable of type *gorm.DB.
func (x *goExtractor) gormHandle(root ast.Expr) bool {
	id, ok := root.(*ast.Ident)
	if !ok {
		return false
	}
	obj := x.objOf(id)
	if obj == nil {
		return false
	}
	var t ast.Expr
	switch d := obj.decl.(type) {
	case *ast.Field:
		t = d.Type
	case *ast.ValueSpec:
		t = d.Type
	}
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	sel, ok := t.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "DB" {
		return false
	}
	q, ok := sel.X.(*ast.Ident)
	return ok && (x.imports[q.Name] == "gorm.io/gorm" || x.imports[q.Name] == "github.com/jinzhu/gorm")
}

// gormMapVar returns the map literal a local variable is given once and
// never changed (`m := map[string]interface{}{…}; db.….Updates(m)`), nil
// otherwise.
func (x *goExtractor) gormMapVar(id *ast.Ident) ast.Expr {
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar || len(x.assigns[obj]) != 1 {
		return nil
	}
	lit, ok := goUnparen(x.assigns[obj][0].value()).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	if _, isMap := lit.Type.(*ast.MapType); !isMap {
		return nil
	}
	for _, u := range x.uses[obj] {
		if ix, ok := x.parent[u].(*ast.IndexExpr); ok && ix.X == ast.Expr(u) {
			return nil // m["k"] = v, delete(m, k): the map changes
		}
		if call, ok := x.parent[u].(*ast.CallExpr); ok && goCalleeName(call) == "delete" {
			return nil
		}
	}
	return lit
}
