package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// An entity write sends what the code put in a record:
//
//	var inv Inventory
//	db.Where("goods = ?", id).First(&inv)
//	inv.Stocks -= n
//	tx.Save(&inv)
//
// is `UPDATE inventories SET …, stocks = ? … WHERE id = ?` with a value
// computed from the read. Save, Updates and UpdateColumns of a record
// variable are recorded as MapperCalls (Framework GORM) with the fields the
// function assigns; the rules judge them as they judge a generated mapper's
// updateByPrimaryKey. A Where before the write adds its conditions (GORM
// keeps the key of a record read too); one that compares a column the
// record sets is a compare-and-set, left alone as a chain with a Table, a
// model with an optimistic lock, or a slice of records is.

// gormEntityWrite records the write of a record variable ending in call;
// it reports whether the call has that form (then it is not a chain to
// render, whether or not it is recorded).
func (x *goExtractor) gormEntityWrite(call *ast.CallExpr, method string) bool {
	arg := goUnparen(call.Args[0])
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = goUnparen(u.X)
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return false
	}
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar || x.gormMapVar(id) != nil {
		return false
	}
	root, links := gormChainOf(call)
	q, ok := x.gormQueryOf(links)
	if !ok || q.table != "" {
		return true
	}
	whereCols, ok := x.whereColumns(q.where)
	if !ok {
		return true
	}
	model := x.gormVarModel(id)
	if model == nil || q.model != nil && q.model != model {
		return true
	}
	if !x.gormImported() && !x.runModels().IsGorm(model) && !x.gormHandle(root) {
		return true
	}
	fields := x.runModels().AllFields(model)
	key := ""
	for _, f := range fields {
		if f.Version {
			return true // optimisticlock: GORM compares and bumps the version
		}
		if f.PrimaryKey && key == "" {
			key = f.Column
		}
	}
	if key == "" {
		for _, f := range fields {
			if f.Column == "id" {
				key = "id"
			}
		}
	}
	table, ok := x.runModels().TableOf(model)
	if !ok || key == "" {
		return true
	}
	read := x.readOf(obj, call, call.Pos())
	sets := x.gormSets(id, obj, model, call, read)
	if len(sets) == 0 || read == nil && len(whereCols) == 0 && !gormKeyGiven(obj, key, sets) {
		return true // a new record: Save inserts it, Updates refuses it
	}
	criteria := []stmt.Criterion{{Property: key, Op: "EqualTo"}}
	where := key + " = ?"
	if len(whereCols) > 0 {
		for _, ps := range sets {
			if whereCols[strings.ToLower(ps.Property)] {
				return true // the Where compares a column it sets: a compare-and-set guard cannot judge
			}
		}
		where = strings.Join(q.where, " AND ")
		if read != nil && !whereCols[strings.ToLower(key)] {
			where += " AND " + key + " = ?" // the key of the record read, which GORM adds
		}
		criteria = criteria[:0]
		for c := range whereCols {
			criteria = append(criteria, stmt.Criterion{Property: c, Op: "EqualTo"})
		}
		slices.SortFunc(criteria, func(a, b stmt.Criterion) int { return strings.Compare(a.Property, b.Property) })
	}
	p := x.position(root.Pos())
	recv := x.exprText(root)
	amp := "&"
	if u, ok := goUnparen(call.Args[0]).(*ast.UnaryExpr); !ok || u.Op != token.AND {
		amp = ""
	}
	x.calls = append(x.calls, stmt.MapperCall{
		Mapper: recv, Method: method, Entity: model.Name, Record: id.Name, RecordRead: read, Sets: sets,
		Criteria: criteria, CriteriaKnown: true, HostMethod: x.enclosingName(call),
		Framework: stmt.FrameworkGORM, Table: table, Line: p.Line, Col: p.Column, EndLine: max(x.position(call.End()).Line, p.Line),
		// Save and Updates of a record write its fields WHERE its key
		// (and the chain's Where).
		Statement: fmt.Sprintf("GORM %s.%s(%s%s) (UPDATE %s SET … WHERE %s)", recv, method, amp, id.Name, table, where),
		Advice:    gormAdvice,
	})
	return true
}

// whereColumns returns, lower case, the columns the Where texts of a chain
// compare; ok is false when one does not parse as a condition.
func (x *goExtractor) whereColumns(where []string) (cols map[string]bool, ok bool) {
	if len(where) == 0 {
		return nil, true
	}
	if x.parser == nil {
		x.parser = sqlparse.NewParser()
	}
	n, err := x.parser.Parse("SELECT 1 FROM t WHERE " + strings.Join(where, " AND "))
	if err != nil {
		return nil, false
	}
	sel, ok := n.(*sqlparse.SelectStmt)
	if !ok || sel.Where == nil {
		return nil, false
	}
	v := &columnNames{names: map[string]bool{}}
	sel.Where.Accept(v)
	return v.names, true
}

// columnNames collects the column names an expression names.
type columnNames struct{ names map[string]bool }

func (v *columnNames) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if c, ok := n.(*sqlparse.ColumnNameExpr); ok {
		v.names[c.Name.Name.L] = true
	}
	return n, false
}

func (v *columnNames) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// gormSets lists what the function assigns to fields of record v before
// the write at call (after its read, when it was read): `v.F = e`,
// `v.F -= e`, `v.F++`, and the keyed fields of the literal v is declared
// with.
func (x *goExtractor) gormSets(v *ast.Ident, obj *goObj, model *GoModel, call *ast.CallExpr, read *stmt.MapperRead) []stmt.PropertySet {
	fn := x.outerFunc(call)
	if fn == nil || fn.Body == nil {
		return nil
	}
	var readPos token.Pos
	if read != nil {
		for _, id := range x.uses[obj] {
			if x.position(id.Pos()).Line == read.Line && id.Pos() < call.Pos() {
				readPos = id.Pos()
			}
		}
	}
	var out []stmt.PropertySet
	add := func(field string, at ast.Node, ps stmt.PropertySet) {
		f := x.gormField(model, field)
		if f == nil || f.Bool {
			return // an on/off switch is neither a counter nor a state machine
		}
		ps.Property, ps.Line = f.Column, x.position(at.Pos()).Line
		out = append(out, ps)
	}
	fieldOf := func(e ast.Expr) string {
		sel, ok := goUnparen(e).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == obj.name && x.objOf(id) == obj {
			return sel.Sel.Name
		}
		return ""
	}
	// The literal the record is declared with.
	if d, ok := obj.decl.(*ast.AssignStmt); ok && len(d.Lhs) == len(d.Rhs) {
		for i, l := range d.Lhs {
			if l, ok := l.(*ast.Ident); ok && x.objOf(l) == obj {
				e := goUnparen(d.Rhs[i])
				if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
					e = goUnparen(u.X)
				}
				if lit, ok := e.(*ast.CompositeLit); ok {
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok {
								add(k.Name, kv, x.gormValue(kv.Value, "", kv.Pos()))
							}
						}
					}
				}
			}
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= call.Pos() {
			return false
		}
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if s.Pos() < readPos || len(s.Lhs) != len(s.Rhs) {
				return true
			}
			for i, l := range s.Lhs {
				field := fieldOf(l)
				if field == "" {
					continue
				}
				switch s.Tok {
				case token.ASSIGN:
					ps := x.gormValue(s.Rhs[i], field, s.Pos())
					ps.Optional = x.goPresenceChecked(fn, s, s.Rhs[i])
					ps.Consulted = x.consulted(fn, obj, field, s.Pos())
					add(field, s, ps)
				case token.SUB_ASSIGN, token.ADD_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN:
					op := strings.TrimSuffix(s.Tok.String(), "=")
					ps := stmt.PropertySet{Text: v.Name + "." + field + " " + op + " " + x.exprText(s.Rhs[i])}
					if read != nil {
						ps.Form, ps.Read, ps.Decrement = stmt.ValueFromRead, read, s.Tok == token.SUB_ASSIGN
					}
					add(field, s, ps)
				}
			}
		case *ast.IncDecStmt:
			if s.Pos() < readPos {
				return true
			}
			if field := fieldOf(s.X); field != "" {
				op := "+"
				if s.Tok == token.DEC {
					op = "-"
				}
				ps := stmt.PropertySet{Text: v.Name + "." + field + " " + op + " 1"}
				if read != nil {
					ps.Form, ps.Read, ps.Decrement = stmt.ValueFromRead, read, s.Tok == token.DEC
				}
				add(field, s, ps)
			}
		}
		return true
	})
	return out
}

// gormValue classifies a value assigned to field (of the record written;
// "" for a literal's field) at pos.
func (x *goExtractor) gormValue(e ast.Expr, field string, pos token.Pos) stmt.PropertySet {
	ps := stmt.PropertySet{Text: x.exprText(e)}
	if read, f := x.valueRead(e, pos); read != nil {
		ps.Form, ps.Read = stmt.ValueFromRead, read
		if sel, ok := goUnparen(e).(*ast.SelectorExpr); ok && f == sel.Sel.Name && (field == "" || f == field) {
			ps.CopiesRead = true
		}
		if _, df, ok := goDecrementOf(e); ok && (field == "" || df == field) {
			ps.Decrement = true
		}
		return ps
	}
	if goSQLLiteral(e) != "" || x.constantName(e) {
		ps.Form = stmt.ValueLiteral
	}
	return ps
}

// constantName reports whether e names a constant: one of the file, or one
// by Go's conventions: an ALL_CAPS name, or a package's exported name
// (enum.OrderPaid).
func (x *goExtractor) constantName(e ast.Expr) bool {
	switch e := goUnparen(e).(type) {
	case *ast.Ident:
		if obj := x.objOf(e); obj != nil && obj.kind == goCon {
			return true
		}
		return hostcode.ConstantName(e.Name)
	case *ast.SelectorExpr:
		_, ok := e.X.(*ast.Ident)
		return ok && hostcode.ConstantName(e.Sel.Name)
	}
	return false
}

// gormKeyGiven reports whether a record that was not read has its primary
// key: set in the function, or a parameter (the caller may have read it).
// Without one, Save inserts the record and Updates refuses it.
func gormKeyGiven(v *goObj, key string, sets []stmt.PropertySet) bool {
	if _, param := v.decl.(*ast.Field); param {
		return true
	}
	for _, s := range sets {
		if s.Property == key {
			return true
		}
	}
	return false
}

// gormAdvice is the fix of a finding at a GORM entity write.
var gormAdvice = &stmt.Advice{
	Via: "a GORM chain (`Model(&x).Where(…).Update(…, gorm.Expr(…))`)",
	CAS: "compare the %[1]s read (`Where(\"%[1]s = ?\", x.%[2]s)`) and bump it",
}
