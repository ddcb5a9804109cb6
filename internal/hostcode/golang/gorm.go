package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// GORM writes never show their SQL: `db.Model(&Product{}).Where("id = ? AND
// stock >= ?", id, n).Update("stock", gorm.Expr("stock - ?", n))` is
// `UPDATE products SET stock = stock - ? WHERE (id = ? AND stock >= ?)`
// once GORM has built it. The functions here build the same text from the
// chain, so that the statement rules judge it at the call. A chain is
// rendered only when every link is understood (Model, Table, Where,
// WithContext, Debug, Session, Unscoped); anything else (Select, Omit,
// Scopes, Clauses, Or, Not, a Where guard cannot read) leaves the call
// alone. A bool field is an on/off switch no rule judges: it is left out
// of the SET, so that `status = ?` of an enabled flag does not read as a
// state machine. An UPDATE with neither a condition nor a primary key is refused
// by GORM (ErrMissingWhereClause) unless the session sets
// AllowGlobalUpdate; only then is it rendered, without WHERE.

// gormBuilder is the Fragment.Builder of a rendered chain.
const gormBuilder = "GORM chain"

// gormWrites are the chain methods that send an UPDATE, with their arity.
var gormWrites = map[string]int{"Update": 2, "UpdateColumn": 2, "Updates": 1, "UpdateColumns": 1}

// gormMethods are the methods of *gorm.DB a chain may call: a link before
// the first of them is the project's own accessor of its handle.
var gormMethods = map[string]bool{
	"Model": true, "Table": true, "Where": true, "Or": true, "Not": true, "Select": true, "Omit": true,
	"Joins": true, "InnerJoins": true, "Preload": true, "Order": true, "Limit": true, "Offset": true,
	"Group": true, "Having": true, "Distinct": true, "Scopes": true, "Clauses": true, "Raw": true,
	"Exec": true, "Unscoped": true, "Session": true, "WithContext": true, "Debug": true, "Begin": true,
	"Attrs": true, "Assign": true, "First": true, "Take": true, "Last": true, "Find": true, "Scan": true,
	"Pluck": true, "Count": true, "Create": true, "Save": true, "Delete": true, "Set": true,
	"Update": true, "Updates": true, "UpdateColumn": true, "UpdateColumns": true, "FirstOrCreate": true,
	"FirstOrInit": true, "Association": true, "Transaction": true, "Rows": true, "Row": true,
}

// gormLink is one call of a chain: db.Where(…) is {Where, call}.
type gormLink struct {
	name string
	call *ast.CallExpr
}

// gormChainOf unwinds `root.A(…).B(…)…` ending in call into its links, in
// order, and the root.
func gormChainOf(call *ast.CallExpr) (root ast.Expr, links []gormLink) {
	var e ast.Expr = call
	for {
		c, ok := goUnparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := goUnparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			break
		}
		links = append([]gormLink{{sel.Sel.Name, c}}, links...)
		e = sel.X
	}
	return goUnparen(e), links
}

// gormQuery is what the links before a write say of it.
type gormQuery struct {
	model    *GoModel
	modelArg ast.Expr // the Model(…) argument
	table    string
	where    []string // each Where's text, placeholders as `?`
	unscoped bool
	global   bool // Session(&gorm.Session{AllowGlobalUpdate: true})
	// selected lists, lower case, the fields or columns a Select(…) names:
	// the write sets those alone, zero values included; nil without a
	// Select, "*" for every field.
	selected []string
}

// selects reports whether the write sets column col (a column, or a field
// of model), given the chain's Select; explicit reports that Select names
// it, so that a zero value is written too.
func (q gormQuery) selects(x *goExtractor, model *GoModel, col string) (ok, explicit bool) {
	if q.selected == nil {
		return true, false
	}
	names := []string{strings.ToLower(col)}
	if model != nil {
		if f := x.gormField(model, col); f != nil {
			names = append(names, strings.ToLower(f.Column), strings.ToLower(f.Name))
		}
	}
	for _, s := range q.selected {
		if s == "*" {
			return true, true
		}
		for _, n := range names {
			if s == n {
				return true, true
			}
		}
	}
	return false, false
}

// gormRender is a rendered statement in construction.
type gormRender struct {
	sets   []string
	params int // placeholders in sets so far
	reads  []stmt.ParamRead
}

// gormImported reports whether the file imports GORM.
func (x *goExtractor) gormImported() bool {
	for _, p := range x.imports {
		if p == "gorm.io/gorm" || p == "github.com/jinzhu/gorm" {
			return true
		}
	}
	return false
}

// gormChains renders the GORM update chains of the file and records its
// entity writes (Save, Updates of a read record).
func (x *goExtractor) gormChains() {
	ast.Inspect(x.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		name := sel.Sel.Name
		if arity, ok := gormWrites[name]; ok && len(call.Args) == arity && !call.Ellipsis.IsValid() {
			if arity == 2 || !x.gormEntityWrite(call, name) {
				x.gormChain(call, name)
			}
		} else if name == "Save" && len(call.Args) == 1 {
			x.gormEntityWrite(call, name)
		}
		return true
	})
}

// gormQueryOf reads the links before the write; ok is false when one is
// not understood.
func (x *goExtractor) gormQueryOf(links []gormLink) (q gormQuery, ok bool) {
	started := false
	for _, l := range links[:len(links)-1] {
		if !started && !gormMethods[l.name] {
			continue // r.data.DB(ctx): the project's accessor of its handle
		}
		started = true
		args := l.call.Args
		switch l.name {
		case "Debug", "WithContext", "Begin", "Limit", "Order":
			// Limit and Order bound which rows the UPDATE takes, not what
			// its WHERE requires of each.
		case "Unscoped":
			q.unscoped = true
		case "Session":
			if len(args) != 1 {
				return q, false
			}
			q.global = q.global || goAllowsGlobalUpdate(args[0])
		case "Model":
			if len(args) != 1 || q.modelArg != nil {
				return q, false
			}
			q.modelArg = args[0]
			if q.model = x.gormModelOf(args[0]); q.model == nil {
				return q, false
			}
		case "Table":
			if len(args) != 1 {
				return q, false
			}
			s, ok := x.constString(args[0])
			if !ok || !goPlainName(s.s) {
				return q, false
			}
			q.table = s.s
		case "Where":
			text, ok := x.gormWhere(args, q.model)
			if !ok {
				return q, false
			}
			q.where = append(q.where, text)
		case "Select":
			if len(args) == 0 || q.selected != nil {
				return q, false
			}
			for _, a := range args {
				text, ok := x.constString(a)
				if !ok {
					return q, false
				}
				for _, name := range strings.Split(text.s, ",") {
					name = strings.Trim(strings.TrimSpace(name), "`")
					if name != "*" && !goPlainName(name) {
						return q, false
					}
					q.selected = append(q.selected, strings.ToLower(name))
				}
			}
		default:
			return q, false
		}
	}
	return q, true
}

// gormNotFollowed says once, at the write, that a chain which is GORM's
// beyond doubt (the file imports gorm and the chain names its Model or
// Table) holds a link guard does not render: the write is not checked.
func (x *goExtractor) gormNotFollowed(call *ast.CallExpr, links []gormLink) {
	if !x.gormImported() {
		return
	}
	gorm := false
	for _, l := range links {
		gorm = gorm || l.name == "Model" || l.name == "Table"
	}
	if !gorm {
		return
	}
	for _, l := range links[:len(links)-1] {
		if gormMethods[l.name] && !gormRendered[l.name] {
			x.addUnchecked(call, fmt.Sprintf("GORM chain not followed: %s(…) at line %d is not a form guard renders",
				l.name, x.position(l.call.Pos()).Line))
			return
		}
	}
}

// gormRendered are the chain links gormQueryOf renders (a Model, Table or
// Where it cannot read is left unreported: its argument, not its kind, is
// what guard does not know).
var gormRendered = map[string]bool{"Debug": true, "WithContext": true, "Begin": true, "Limit": true, "Order": true, "Unscoped": true,
	"Session": true, "Model": true, "Table": true, "Where": true, "Select": true}

// goAllowsGlobalUpdate reports whether a Session argument is
// &gorm.Session{AllowGlobalUpdate: true}.
func goAllowsGlobalUpdate(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = u.X
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			k, _ := kv.Key.(*ast.Ident)
			v, _ := kv.Value.(*ast.Ident)
			if k != nil && v != nil && k.Name == "AllowGlobalUpdate" && v.Name == "true" {
				return true
			}
		}
	}
	return false
}

// goPlainName reports whether s is one SQL name (t_product, shop.t_product).
func goPlainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// gormChain renders a write chain ending in call (Update, UpdateColumn,
// Updates, UpdateColumns) as a Fragment.
func (x *goExtractor) gormChain(call *ast.CallExpr, method string) {
	root, links := gormChainOf(call)
	q, ok := x.gormQueryOf(links)
	if !ok {
		x.gormNotFollowed(call, links)
		return
	}
	r := &gormRender{}
	model := q.model
	switch method {
	case "Update", "UpdateColumn":
		col, ok := x.constString(call.Args[0])
		if !ok || !goPlainName(col.s) {
			return
		}
		if sel, _ := q.selects(x, model, col.s); sel && !x.gormSet(r, model, col.s, call.Args[1], call) {
			return
		}
	default:
		arg := goUnparen(call.Args[0])
		if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = goUnparen(u.X)
		}
		if id, isID := arg.(*ast.Ident); isID {
			arg = x.gormMapVar(id)
		}
		lit, ok := arg.(*ast.CompositeLit)
		if !ok {
			return
		}
		switch lit.Type.(type) {
		case *ast.MapType:
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					return
				}
				col, ok := x.constString(kv.Key)
				if !ok || !goPlainName(col.s) {
					return
				}
				if sel, _ := q.selects(x, model, col.s); sel && !x.gormSet(r, model, col.s, kv.Value, call) {
					return
				}
			}
		default:
			lm := x.gormModelOfType(lit.Type)
			if lm == nil {
				return
			}
			if model == nil {
				model = lm
			}
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					return
				}
				k, ok := kv.Key.(*ast.Ident)
				if !ok {
					return
				}
				f := x.gormField(lm, k.Name)
				if f == nil {
					return
				}
				sel, explicit := q.selects(x, lm, f.Column)
				if !sel || goZeroLiteral(kv.Value) && !explicit {
					continue // Updates with a struct skips zero fields, unless Select names them
				}
				if !x.gormSet(r, model, f.Column, kv.Value, call) {
					return
				}
			}
		}
	}
	if len(r.sets) == 0 || model == nil && q.table == "" {
		return
	}
	if model != nil && !x.gormImported() && !x.runModels().IsGorm(model) && !x.gormHandle(root) {
		return
	}
	table := q.table
	if table == "" {
		t, ok := x.runModels().TableOf(model)
		if !ok {
			return
		}
		table = t
	}
	where := append([]string(nil), q.where...)
	if model != nil {
		fields := x.runModels().AllFields(model)
		if q.modelArg != nil && x.gormModelKeyed(q.modelArg, fields) {
			for _, f := range fields {
				if f.PrimaryKey || !goHasPrimaryKey(fields) && f.Column == "id" {
					where = append(where, "`"+f.Column+"` = ?")
					break
				}
			}
		}
		for _, f := range fields {
			switch {
			case f.Version:
				r.sets = append(r.sets, "`"+f.Column+"` = `"+f.Column+"` + 1")
				if !q.unscoped && q.modelArg != nil && x.gormModelKeyed(q.modelArg, fields) {
					where = append(where, "`"+f.Column+"` = ?")
				}
			case f.SoftDelete && !q.unscoped:
				where = append(where, "`"+f.Column+"` IS NULL")
			}
		}
	}
	if len(where) == 0 && !q.global {
		return // GORM refuses it: ErrMissingWhereClause
	}
	var b strings.Builder
	b.WriteString("UPDATE `" + strings.ReplaceAll(table, ".", "`.`") + "` SET " + strings.Join(r.sets, ", "))
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	// The SET placeholders come first in the text, as the reads number them.
	x.addGormFragment(b.String(), root, call, method, r.reads)
}

// addGormFragment records a rendered chain at its call, when it parses.
func (x *goExtractor) addGormFragment(sql string, root ast.Expr, call *ast.CallExpr, method string, reads []stmt.ParamRead) {
	if !x.parses(sql) {
		return
	}
	p := x.position(root.Pos())
	fr := &stmt.Fragment{File: x.path, Lang: stmt.LangGo, SQL: sql, Segments: []stmt.Segment{{Off: 0, Line: p.Line, Col: p.Column}},
		Line: p.Line, Col: p.Column, EndLine: max(x.position(call.End()).Line, p.Line), ID: x.enclosingName(call),
		Builder: gormBuilder, ParamReads: reads}
	fr.Exec = x.execFacts(call, method)
	fr.Exec.Returns = stmt.ReturnsHandle
	x.frags = append(x.frags, fr)
}

// parses reports whether sql parses as one statement.
func (x *goExtractor) parses(sql string) bool {
	if x.parser == nil {
		x.parser = sqlparse.NewParser()
	}
	_, err := x.parser.Parse(sql)
	return err == nil
}

// gormSet appends `col = value` to the SET list; a gorm.Expr value is its
// SQL, a literal its text, anything else a placeholder.
func (x *goExtractor) gormSet(r *gormRender, model *GoModel, col string, v ast.Expr, at ast.Node) bool {
	if model != nil {
		if f := x.gormField(model, col); f != nil {
			if f.Bool {
				return true // an on/off switch: no rule judges it, and `status = ?` would read as a state
			}
			col = f.Column
		}
	}
	qcol := col
	if !strings.Contains(col, ".") {
		qcol = "`" + col + "`"
	}
	if call, ok := goUnparen(v).(*ast.CallExpr); ok && goCalleeName(call) == "Expr" && len(call.Args) > 0 {
		if sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr); ok && x.pkgOf(sel) != "" {
			text, ok := x.constString(call.Args[0])
			if !ok {
				return false
			}
			expr := goBindLiterals(text.s, call.Args[1:])
			r.params += goCountMarks(expr)
			r.sets = append(r.sets, qcol+" = "+expr)
			return true
		}
	}
	if lit := goSQLLiteral(v); lit != "" {
		r.sets = append(r.sets, qcol+" = "+lit)
		return true
	}
	if read, _ := x.valueRead(v, at.Pos()); read != nil {
		pr := stmt.ParamRead{Param: r.params, Read: *read, Text: x.exprText(v)}
		if id, f, ok := goDecrementOf(v); ok && id.Name == read.Variable {
			fc := GoColumnName(f)
			if m := x.gormVarModel(id); m != nil {
				if mf := x.gormField(m, f); mf != nil {
					fc = mf.Column
				}
			}
			pr.Decrement = strings.EqualFold(fc, col)
		}
		r.reads = append(r.reads, pr)
	}
	r.sets = append(r.sets, qcol+" = ?")
	r.params++
	return true
}
