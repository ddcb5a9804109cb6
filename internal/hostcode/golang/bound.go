package golang

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// bindReads records, for the fragments an Exec-like call runs, which bound
// values the function computed from a record it read (see ParamRead):
// the arguments after the query, in order, or, for sqlx's NamedExec, the
// fields of the struct (or the keys of the map) its `:name` parameters
// name. A fragment run by several calls keeps the reads of the first.
func (x *goExtractor) bindReads(call *ast.CallExpr, name string, query int, frs []*stmt.Fragment) {
	if query+1 >= len(call.Args) || call.Ellipsis.IsValid() {
		return
	}
	for _, fr := range frs {
		if fr.Unchecked != "" || fr.ParamReads != nil {
			continue
		}
		if name == "NamedExec" || name == "NamedExecContext" {
			fr.ParamReads = x.namedReads(call, call.Args[query+1], sqlparse.PlaceholderNames(fr.SQL))
			continue
		}
		for i, a := range call.Args[query+1:] {
			if read, _ := x.valueRead(a, call.Pos()); read != nil {
				pr := stmt.ParamRead{Param: i, Read: *read, Text: x.exprText(a)}
				fr.ParamReads = append(fr.ParamReads, pr)
			}
		}
	}
}

// bindExprs writes into the fragments an Exec-like call runs the SQL of
// the gorm.Expr values it binds, as GORM sends it: Exec("UPDATE goods SET
// inventory = ? WHERE id = ?", gorm.Expr("inventory + ?", n), id) runs
// `inventory = inventory + ?`, relative to the column. An Expr of one
// placeholder keeps the numbering of the others.
func (x *goExtractor) bindExprs(call *ast.CallExpr, query int, frs []*stmt.Fragment) {
	for k, a := range call.Args[min(query+1, len(call.Args)):] {
		e, ok := goUnparen(a).(*ast.CallExpr)
		if !ok || goCalleeName(e) != "Expr" || len(e.Args) != 2 {
			continue
		}
		if sel, ok := goUnparen(e.Fun).(*ast.SelectorExpr); !ok || x.pkgOf(sel) == "" {
			continue
		}
		text, ok := x.constString(e.Args[0])
		if !ok || goCountMarks(text.s) != 1 {
			continue
		}
		for _, fr := range frs {
			if s, end, ok := sqlparse.PlaceholderAt(fr.SQL, k); ok && fr.Unchecked == "" && end == s+1 {
				substituteMark(fr, s, text)
			}
		}
	}
}

// substituteMark replaces the placeholder at byte p of fr's SQL by text,
// its bytes placed where text stands in the file.
func substituteMark(fr *stmt.Fragment, p int, text goString) {
	after := stmt.Segment{Off: p + len(text.s)}
	after.Line, after.Col = fr.Pos(p + 1)
	var segs []stmt.Segment
	for _, sg := range fr.Segments {
		if sg.Off < p {
			segs = append(segs, sg)
		}
	}
	for _, sg := range text.segs {
		sg.Off += p
		segs = append(segs, sg)
	}
	if p+1 < len(fr.SQL) {
		segs = append(segs, after)
	}
	for _, sg := range fr.Segments {
		if sg.Off > p+1 {
			sg.Off += len(text.s) - 1
			segs = append(segs, sg)
		}
	}
	fr.SQL, fr.Segments = fr.SQL[:p]+text.s+fr.SQL[p+1:], segs
}

// namedReads maps the `:name` parameters of a NamedExec to the values the
// function gave them from a read: fields of the struct argument assigned
// from the read (`p.Stock = p.Stock - n`, matched by `db` tag, else by the
// field's name in lower case, as sqlx maps them), or a map literal's
// values.
func (x *goExtractor) namedReads(call *ast.CallExpr, arg ast.Expr, names []string) []stmt.ParamRead {
	var out []stmt.ParamRead
	arg = goUnparen(arg)
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = goUnparen(u.X)
	}
	if lit, ok := arg.(*ast.CompositeLit); ok {
		if _, isMap := lit.Type.(*ast.MapType); !isMap {
			return nil
		}
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			k, ok := x.constString(kv.Key)
			if !ok {
				continue
			}
			read, _ := x.valueRead(kv.Value, call.Pos())
			if read == nil {
				continue
			}
			_, f, dec := goDecrementOf(kv.Value)
			for i, n := range names {
				if n == k.s {
					out = append(out, stmt.ParamRead{Param: i, Read: *read, Text: x.exprText(kv.Value), Decrement: dec && GoColumnName(f) == n})
				}
			}
		}
		return out
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return nil
	}
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar {
		return nil
	}
	model := x.gormVarModel(id)
	if model == nil {
		return nil
	}
	read := x.readOf(obj, call, call.Pos())
	fields := x.runModels().AllFields(model)
	for _, s := range x.gormSets(id, obj, model, call, read) {
		if s.Form != stmt.ValueFromRead || s.CopiesRead {
			continue
		}
		for _, f := range fields {
			if f.Column != s.Property {
				continue
			}
			for i, n := range names {
				if n == f.DB {
					out = append(out, stmt.ParamRead{Param: i, Read: *s.Read, Text: s.Text, Decrement: s.Decrement})
				}
			}
		}
	}
	return out
}
