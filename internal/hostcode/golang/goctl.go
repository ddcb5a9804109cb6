package golang

import (
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// Generated go-zero models (goctl) build every statement with fmt.Sprintf
// from values the file fixes once and for all: the table name is a constant
// the constructor puts in the model's `table` field, and the column lists are
// package variables computed from the row struct's `db` tags:
//
//	fooFieldNames          = builder.RawFieldNames(&Foo{})
//	fooRowsWithPlaceHolder = strings.Join(stringx.Remove(fooFieldNames, "`id`"), "=?,") + "=?"
//	…
//	query := fmt.Sprintf("update %s set %s where `id` = ?", m.table, fooRowsWithPlaceHolder)
//
// Such a Sprintf is a constant statement in all but name. The functions here
// compute it, and say why when a piece cannot be known from the file.

// goFixed is a value the file fixes: a string, or a list of strings.
type goFixed struct {
	s      string
	list   []string
	isList bool
}

// goFixedResolver computes fixed values. why is set, once, by the first piece
// that looked like one of goctl's and could not be computed; it stays empty
// when the value is simply a run-time one (a parameter, a local variable).
type goFixedResolver struct {
	x    *goExtractor
	why  string
	seen map[*goObj]bool
}

// sprintfFixed computes a fmt.Sprintf call whose format and arguments are all
// fixed by the file. ok is false otherwise; why then says what could not be
// computed, "" when an argument is a plain run-time value.
func (x *goExtractor) sprintfFixed(call *ast.CallExpr) (sql string, why string, ok bool) {
	if len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return "", "", false
	}
	format, ok := x.constString(call.Args[0])
	if !ok {
		return "", "", false
	}
	r := &goFixedResolver{x: x, seen: map[*goObj]bool{}}
	args := call.Args[1:]
	var b strings.Builder
	next := 0
	f := format.s
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 >= len(f) {
			return "", "the format ends in a lone %", false
		}
		i++
		verb := f[i]
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if next >= len(args) {
			return "", "the format has more verbs than arguments", false
		}
		arg := args[next]
		next++
		switch verb {
		case 's', 'v':
			v, ok := r.value(arg, 0)
			if !ok || v.isList {
				return "", r.reason(arg, ok), false
			}
			b.WriteString(v.s)
		case 'd':
			n, ok := x.constInt(arg)
			if !ok {
				return "", "", false
			}
			b.WriteString(n)
		default:
			return "", "verb %" + string(verb) + " is not one guard computes", false
		}
		if b.Len() > goMaxConstLen {
			return "", "", false
		}
	}
	if next != len(args) {
		return "", "the format has fewer verbs than arguments", false
	}
	return b.String(), "", true
}

// reason is why arg is not a fixed string: what the resolver found, or that
// it is a list where a string goes.
func (r *goFixedResolver) reason(arg ast.Expr, resolved bool) string {
	if resolved {
		return "argument `" + r.x.exprText(arg) + "` is a list of columns, not a string"
	}
	return r.why
}

// fail records why a goctl-shaped piece could not be computed.
func (r *goFixedResolver) fail(why string) (goFixed, bool) {
	if r.why == "" {
		r.why = why
	}
	return goFixed{}, false
}

// value computes e: a string constant, a package variable of the file
// assigned once, a field of the method's receiver set to a constant by the
// composite literals of the file, or a call of strings.Join,
// go-zero's stringx.Remove and builder.RawFieldNames, or a + of those.
func (r *goFixedResolver) value(e ast.Expr, depth int) (goFixed, bool) {
	x := r.x
	if depth > goMaxDepth {
		return goFixed{}, false
	}
	e = goUnparen(e)
	if v, ok := x.constString(e); ok {
		return goFixed{s: v.s}, true
	}
	switch e := e.(type) {
	case *ast.Ident:
		if obj := x.pkgObjOf(e); obj != nil && obj.file != x {
			return r.siblingValue(obj, depth+1)
		} else if obj == nil && !x.universal(e) {
			// Not declared in the files read: the package's, from a file
			// not read with this one.
			x.wantPackage()
			return r.fail("`" + e.Name + "` is declared in another file, which guard does not read with this one")
		}
		return r.packageVar(e, depth)
	case *ast.SelectorExpr:
		return r.receiverField(e, depth)
	case *ast.CallExpr:
		return r.call(e, depth)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return goFixed{}, false
		}
		var b strings.Builder
		for _, op := range goFlattenConcat(e) {
			v, ok := r.value(op, depth+1)
			if !ok || v.isList {
				return goFixed{}, false
			}
			b.WriteString(v.s)
			if b.Len() > goMaxConstLen {
				return goFixed{}, false
			}
		}
		return goFixed{s: b.String()}, true
	}
	return goFixed{}, false
}

// packageVar computes a package-level variable of the file that nothing in
// the file assigns again.
func (r *goFixedResolver) packageVar(id *ast.Ident, depth int) (goFixed, bool) {
	x := r.x
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar || r.seen[obj] {
		return goFixed{}, false
	}
	spec, ok := obj.decl.(*ast.ValueSpec)
	if !ok || len(spec.Values) != len(spec.Names) {
		return goFixed{}, false
	}
	decl, ok := x.parent[spec].(*ast.GenDecl)
	if !ok {
		return goFixed{}, false
	}
	if _, ok := x.parent[decl].(*ast.File); !ok {
		return goFixed{}, false // a local variable
	}
	if x.packageAssigns(obj) != 1 || x.packageMutates(obj) {
		return r.fail("variable `" + id.Name + "` is assigned more than once")
	}
	for i, n := range spec.Names {
		if n == obj.ident {
			r.seen[obj] = true
			v, ok := r.value(spec.Values[i], depth+1)
			delete(r.seen, obj)
			if !ok {
				return r.fail("variable `" + id.Name + "` is not computed from constants of this file")
			}
			return v, true
		}
	}
	return goFixed{}, false
}

// mutated reports whether the file changes the variable other than by
// assigning it: an element assigned (v[0] = …), its address taken, passed to
// append.
func (x *goExtractor) mutated(obj *goObj) bool {
	for _, id := range x.uses[obj] {
		switch p := x.parent[id].(type) {
		case *ast.IndexExpr:
			if as, ok := x.parent[p].(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if l == ast.Expr(p) {
						return true
					}
				}
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return true
			}
		case *ast.CallExpr:
			if f, ok := p.Fun.(*ast.Ident); ok && (f.Name == "append" || f.Name == "copy") && x.universal(f) {
				return true
			}
		}
	}
	return false
}

// receiverField computes m.f inside a method of T (receiver m): the value
// every composite literal of T in the file gives f, when they agree and no
// assignment of the file writes a field named f.
func (r *goFixedResolver) receiverField(sel *ast.SelectorExpr, depth int) (goFixed, bool) {
	x := r.x
	recv, ok := sel.X.(*ast.Ident)
	if !ok {
		return goFixed{}, false
	}
	robj := x.objOf(recv)
	if robj == nil || robj.kind != goVar {
		return goFixed{}, false
	}
	field, ok := robj.decl.(*ast.Field)
	if !ok {
		return goFixed{}, false
	}
	fl, ok := x.parent[field].(*ast.FieldList)
	if !ok {
		return goFixed{}, false
	}
	fn, ok := x.parent[fl].(*ast.FuncDecl)
	if !ok || fn.Recv != fl {
		return goFixed{}, false
	}
	typ := goTypeIdent(field.Type)
	if typ == nil {
		return goFixed{}, false
	}
	tobj := x.objOf(typ)
	if tobj == nil {
		// A method, in this file, of a type another file declares.
		v, why, ok, found := r.siblingField(typ, sel.Sel.Name, depth)
		if found && !ok {
			return r.fail(why)
		}
		return v, ok
	}
	if tobj.kind != goTyp {
		return goFixed{}, false
	}
	key := goFieldKey{tobj, sel.Sel.Name}
	if m, ok := x.fieldMemo[key]; ok {
		if !m.ok {
			return r.fail(m.why)
		}
		return m.val, true
	}
	x.fieldMemo[key] = goFieldMemo{why: "field `" + key.name + "` of " + typ.Name + " is set from itself"} // a cycle
	v, why, ok := r.fieldValue(typ, key.name, depth)
	x.fieldMemo[key] = goFieldMemo{val: v, why: why, ok: ok}
	if !ok {
		return r.fail(why)
	}
	return v, true
}

// goFieldKey names a field of a type of the file.
type goFieldKey struct {
	typ  *goObj
	name string
}

// goFieldMemo is the computed value of a field, or why it has none: every
// statement of a model names the same `table`, and finding it walks the file.
type goFieldMemo struct {
	val goFixed
	why string
	ok  bool
}

// fieldValue finds the value the file gives field name of type typ.
func (r *goFixedResolver) fieldValue(typ *ast.Ident, name string, depth int) (goFixed, string, bool) {
	x := r.x
	what := "field `" + name + "` of " + typ.Name
	tobj := x.objOf(typ)
	var val *goFixed
	var bad string
	ast.Inspect(x.file, func(n ast.Node) bool {
		if bad != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if s, ok := goUnparen(l).(*ast.SelectorExpr); ok && s.Sel.Name == name {
					bad = what + " is assigned at line " + strconv.Itoa(x.position(n.Pos()).Line)
				}
			}
		case *ast.CompositeLit:
			t := goTypeIdent(n.Type)
			if t == nil || x.objOf(t) != tobj {
				return true
			}
			for _, el := range n.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					bad = what + " is set by a literal without field names"
					return false
				}
				if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != name {
					continue
				}
				v, ok := r.value(kv.Value, depth+1)
				switch {
				case !ok || v.isList:
					bad = what + " is set to `" + x.exprText(kv.Value) + "`, not a constant"
				case val != nil && val.s != v.s:
					bad = what + " is set to different values"
				default:
					val = &v
				}
			}
		}
		return true
	})
	if bad != "" {
		return goFixed{}, bad, false
	}
	if val == nil {
		if v, why, ok, found := r.embeddedField(typ, name, depth); found {
			return v, why, ok
		}
		return goFixed{}, what + " is not set in this file", false
	}
	return *val, "", true
}

// goPredeclared are the predeclared names a value can be.
var goPredeclared = map[string]bool{"true": true, "false": true, "nil": true, "iota": true}

// goTypeIdent is the name of a type written T or *T.
func goTypeIdent(t ast.Expr) *ast.Ident {
	t = goUnparen(t)
	if s, ok := t.(*ast.StarExpr); ok {
		t = goUnparen(s.X)
	}
	id, _ := t.(*ast.Ident)
	return id
}

// call computes strings.Join, go-zero's stringx.Remove and
// builder.RawFieldNames (builderx in older releases).
func (r *goFixedResolver) call(call *ast.CallExpr, depth int) (goFixed, bool) {
	x := r.x
	sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr)
	if !ok || call.Ellipsis.IsValid() {
		return goFixed{}, false
	}
	path := x.pkgOf(sel)
	switch {
	case path == "strings" && sel.Sel.Name == "Join" && len(call.Args) == 2:
		list, ok := r.value(call.Args[0], depth+1)
		if !ok || !list.isList {
			return goFixed{}, false // a run-time list, or the reason is recorded
		}
		sep, ok := r.value(call.Args[1], depth+1)
		if !ok || sep.isList {
			return r.fail("the separator `" + x.exprText(call.Args[1]) + "` is not a constant")
		}
		s := strings.Join(list.list, sep.s)
		if len(s) > goMaxConstLen {
			return goFixed{}, false
		}
		return goFixed{s: s}, true
	case goZeroPackage(path, "core/stringx") && sel.Sel.Name == "Remove" && len(call.Args) >= 1:
		list, ok := r.value(call.Args[0], depth+1)
		if !ok || !list.isList {
			return goFixed{}, false // a run-time list, or the reason is recorded
		}
		drop := map[string]bool{}
		for _, a := range call.Args[1:] {
			v, ok := r.value(a, depth+1)
			if !ok || v.isList {
				return r.fail("`" + x.exprText(a) + "` removed from the columns is not a constant")
			}
			drop[v.s] = true
		}
		out := []string{}
		for _, s := range list.list {
			if !drop[s] {
				out = append(out, s)
			}
		}
		return goFixed{list: out, isList: true}, true
	case (goZeroPackage(path, "core/stores/builder") || goZeroPackage(path, "core/stores/builderx")) && sel.Sel.Name == "RawFieldNames":
		if len(call.Args) != 1 {
			return r.fail("RawFieldNames with options is not computed")
		}
		return r.rawFieldNames(call.Args[0])
	}
	return goFixed{}, false
}

// goZeroPackage reports whether an import path is go-zero's package dir
// (github.com/zeromicro/go-zero/core/stringx, or its older home under
// tal-tech).
func goZeroPackage(path, dir string) bool {
	return strings.HasSuffix(path, "/go-zero/"+dir)
}

// rawFieldNames computes builder.RawFieldNames(&T{}) for a struct T of the
// file: each field's `db` tag name (up to a comma; the field's name when the
// tag gives none; fields tagged "-" left out), in backquotes, in order.
func (r *goFixedResolver) rawFieldNames(arg ast.Expr) (goFixed, bool) {
	arg = goUnparen(arg)
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = goUnparen(u.X)
	}
	lit, ok := arg.(*ast.CompositeLit)
	if !ok {
		return r.fail("RawFieldNames of `" + r.x.exprText(arg) + "`, not of a struct literal")
	}
	id := goTypeIdent(lit.Type)
	obj := r.x.pkgObjOf(id)
	if obj == nil && id != nil && !r.x.universal(id) {
		r.x.wantPackage()
	}
	if obj == nil || obj.kind != goTyp {
		return r.fail("RawFieldNames of a type not declared in this file")
	}
	spec, ok := obj.decl.(*ast.TypeSpec)
	if !ok {
		return r.fail("RawFieldNames of a type not declared in this file")
	}
	st, ok := spec.Type.(*ast.StructType)
	if !ok || st.Fields == nil {
		return r.fail("RawFieldNames of " + id.Name + ", which is not a struct")
	}
	out := []string{}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			return r.fail("struct " + id.Name + " embeds a type, whose fields guard does not see")
		}
		tag := ""
		if f.Tag != nil {
			t, err := strconv.Unquote(f.Tag.Value)
			if err != nil {
				return r.fail("struct " + id.Name + " has a tag guard cannot read")
			}
			tag = reflect.StructTag(t).Get("db")
		}
		if i := strings.IndexByte(tag, ','); i >= 0 {
			tag = strings.TrimSpace(tag[:i])
		}
		if tag == "-" {
			continue
		}
		for _, n := range f.Names {
			col := tag
			if col == "" {
				col = n.Name
			}
			out = append(out, "`"+col+"`")
		}
	}
	return goFixed{list: out, isList: true}, true
}
