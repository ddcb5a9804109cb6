package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// This file is the statement analysis the query rules share: which tables a
// write touches and which table an assigned or compared column belongs to;
// analysis_expr.go says what an assignment computes and what a WHERE clause
// proves about a column. Everything works on the parsed tree; nothing looks
// at SQL text except through sqlparse's restore functions.

// writeKind says which kind of write a statement is.
type writeKind int

const (
	writeUpdate writeKind = iota + 1
	writeDelete
	writeInsert
)

func (k writeKind) String() string {
	switch k {
	case writeUpdate:
		return "UPDATE"
	case writeDelete:
		return "DELETE"
	case writeInsert:
		return "INSERT"
	}
	return "?"
}

// target is one table source of a write: a base table (Table set when the
// schema knows it) or a derived table (name empty, only an alias).
type target struct {
	// name is the table name as written, without the database qualifier.
	name string
	// db is the database qualifier as written, or empty.
	db string
	// alias is the AS name, or empty.
	alias string
	// table is the schema model of the table; nil when the schema does not know it.
	table *schema.Table
}

// tableName returns the name findings report for t; empty for nil or a
// derived table, which makes the policy fall back to column heuristics.
func (t *target) tableName() string {
	if t == nil {
		return ""
	}
	if t.table != nil {
		return t.table.Name
	}
	return t.name
}

// refersTo reports whether a column qualifier (the "s" of s.qty, with an
// optional database) names t.
func (t *target) refersTo(db, qual string) bool {
	if t.alias != "" {
		return db == "" && strings.EqualFold(qual, t.alias)
	}
	if !strings.EqualFold(qual, t.name) {
		return false
	}
	return db == "" || t.db == "" || strings.EqualFold(db, t.db)
}

// hasColumn reports whether the schema says t has column col; unknown tables
// answer false.
func (t *target) hasColumn(col string) bool {
	return t != nil && t.table != nil && t.table.Column(col) != nil
}

// write is the part of an UPDATE, DELETE or INSERT the query rules inspect.
type write struct {
	kind writeKind
	// targets lists every table source of the statement, joined ones included.
	targets []*target
	// set holds the SET list of an UPDATE or the ON DUPLICATE KEY UPDATE list
	// of an INSERT.
	set []*sqlparse.Assignment
	// where is the WHERE expression, nil when there is none.
	where sqlparse.ExprNode
	// on holds the ON conditions of the joins.
	on []sqlparse.ExprNode
	// ignore is set for INSERT IGNORE / UPDATE IGNORE / DELETE IGNORE.
	ignore bool
	// replace is set for REPLACE.
	replace bool
	// upsert is set for INSERT … ON DUPLICATE KEY UPDATE.
	upsert bool
	// decs holds the SET items that lower their column (analysis_decrement.go).
	decs []decrement
	// negated maps the placeholders a caller binds to a negated amount to
	// where it does (stmt.Fragment.Negated); nil for most statements.
	negated map[sqlparse.ParamMarkerExpr]string
	// asgs and conds cache assignments() and filters(), which every rule
	// asks for; their capacity is their length, so an append copies.
	asgs  []assignment
	conds []sqlparse.ExprNode
	// cached records that asgs and conds are filled.
	cached bool
	// tbuf, pbuf and cbuf hold the first targets and conjuncts in place: most
	// writes name one or two tables and test a few conditions, and then the
	// analysis allocates nothing beyond the write itself.
	tbuf [2]target
	pbuf [2]*target
	cbuf [4]sqlparse.ExprNode
}

// newTarget returns a fresh target, from w's own storage while it lasts.
func (w *write) newTarget() *target {
	for i := range w.tbuf {
		if w.pbuf[i] == nil {
			w.pbuf[i] = &w.tbuf[i]
			return w.pbuf[i]
		}
	}
	return &target{}
}

// writeTargets returns the write shape of st, or nil when st is not a parsed
// UPDATE, DELETE, INSERT or REPLACE. Tables are resolved against s (which may
// be nil).
func writeTargets(st *lint.Statement, s *schema.Schema) *write {
	if st == nil || st.Node == nil {
		return nil
	}
	// Every query rule asks for the same statement's targets: work them out once.
	return st.Memo(writeTargetsKey{s}, func() any { return buildWriteTargets(st, s) }).(*write)
}

// writeTargetsKey keys the memo of writeTargets; the schema is part of the key.
type writeTargetsKey struct{ s *schema.Schema }

func buildWriteTargets(st *lint.Statement, s *schema.Schema) *write {
	switch st.Node.(type) {
	case *sqlparse.UpdateStmt, *sqlparse.DeleteStmt, *sqlparse.InsertStmt:
	default:
		return nil // a read: no write to analyse, and nothing allocated for it
	}
	w := &write{}
	w.targets = w.pbuf[:0:len(w.pbuf)]
	switch n := st.Node.(type) {
	case *sqlparse.UpdateStmt:
		w.kind, w.set, w.where, w.ignore = writeUpdate, n.List, n.Where, n.IgnoreErr
		if n.TableRefs != nil {
			w.collect(n.TableRefs.TableRefs, s)
		}
	case *sqlparse.DeleteStmt:
		w.kind, w.where, w.ignore = writeDelete, n.Where, n.IgnoreErr
		if n.TableRefs != nil {
			w.collect(n.TableRefs.TableRefs, s)
		}
	case *sqlparse.InsertStmt:
		w.kind, w.set, w.ignore, w.replace = writeInsert, n.OnDuplicate, n.IgnoreErr, n.IsReplace
		w.upsert = len(n.OnDuplicate) > 0
		if n.Table != nil {
			w.collect(n.Table.TableRefs, s)
		}
	default:
		return nil
	}
	w.negated = negatedMarkers(st)
	w.decs = analyseDecrements(w)
	return w
}

// negatedMarkers maps the placeholders of st that some caller binds to a
// negated amount to the call that does.
func negatedMarkers(st *lint.Statement) map[sqlparse.ParamMarkerExpr]string {
	if st.Fragment == nil || len(st.Fragment.Negated) == 0 {
		return nil
	}
	out := map[sqlparse.ParamMarkerExpr]string{}
	for m, k := range sqlparse.ParamOrdinals(st.Node) {
		for _, n := range st.Fragment.Negated {
			if n.Param == k {
				out[m] = n.Call
			}
		}
	}
	return out
}

// collect walks a FROM/JOIN tree, recording its table sources and ON conditions.
func (w *write) collect(n sqlparse.ResultSetNode, s *schema.Schema) {
	switch n := n.(type) {
	case *sqlparse.Join:
		if n == nil {
			return
		}
		w.collect(n.Left, s)
		if n.Right != nil {
			w.collect(n.Right, s)
		}
		// Only an inner join's ON restricts the rows written: an outer join
		// keeps every row of its preserved side.
		if n.Tp == sqlparse.CrossJoin && n.On != nil && n.On.Expr != nil {
			w.on = append(w.on, n.On.Expr)
		}
	case *sqlparse.TableSource:
		if j, ok := n.Source.(*sqlparse.Join); ok {
			w.collect(j, s)
			return
		}
		t := w.newTarget()
		t.alias = n.AsName.O
		if tn, ok := n.Source.(*sqlparse.TableName); ok {
			t.name, t.db = tn.Name.O, tn.Schema.O
			t.table = s.Table(tn.Name.O)
		}
		w.targets = append(w.targets, t)
	case *sqlparse.TableName:
		t := w.newTarget()
		t.name, t.db, t.table = n.Name.O, n.Schema.O, s.Table(n.Name.O)
		w.targets = append(w.targets, t)
	}
}

// resolve returns the target column c belongs to, or nil when that cannot be
// told. A qualified name picks the target it names; an unqualified one picks
// the only target, else the only target the schema gives such a column, else
// the only target the schema does not know.
func (w *write) resolve(c *sqlparse.ColumnName) *target {
	if c == nil || len(w.targets) == 0 {
		return nil
	}
	if c.Table.O != "" {
		for _, t := range w.targets {
			if t.refersTo(c.Schema.O, c.Table.O) {
				return t
			}
		}
		return nil
	}
	if len(w.targets) == 1 {
		return w.targets[0]
	}
	var known, unknown []*target
	for _, t := range w.targets {
		switch {
		case t.hasColumn(c.Name.O):
			known = append(known, t)
		case t.table == nil:
			unknown = append(unknown, t)
		}
	}
	if len(known) == 1 {
		return known[0]
	}
	if len(known) == 0 && len(unknown) == 1 {
		return unknown[0]
	}
	return nil
}

// colRef is one column of one target: the column an assignment writes, which
// the rules then look for in expressions and WHERE conjuncts.
type colRef struct {
	w    *write
	t    *target // nil when the column could not be resolved
	name string
}

// ref returns the colRef of column c in w.
func (w *write) ref(c *sqlparse.ColumnName) colRef {
	return colRef{w: w, t: w.resolve(c), name: c.Name.O}
}

// refNamed returns the colRef of column name of target t.
func (w *write) refNamed(t *target, name string) colRef {
	return colRef{w: w, t: t, name: name}
}

// matches reports whether e (parentheses stripped) is a reference to c.
func (c colRef) matches(e sqlparse.ExprNode) bool {
	cn, ok := columnOf(e)
	if !ok || !strings.EqualFold(cn.Name.O, c.name) {
		return false
	}
	return c.w.resolve(cn) == c.t
}

// assignment is one SET item with its column resolved.
type assignment struct {
	col  colRef
	expr sqlparse.ExprNode
	node *sqlparse.Assignment
}

// assignments returns the SET (or ON DUPLICATE KEY UPDATE) items of w.
func (w *write) assignments() []assignment {
	w.fill()
	return w.asgs
}

// fill computes the SET items and the filters once.
func (w *write) fill() {
	if w.cached {
		return
	}
	w.cached = true
	asgs := make([]assignment, 0, len(w.set))
	for _, a := range w.set {
		if a == nil || a.Column == nil {
			continue
		}
		asgs = append(asgs, assignment{col: w.ref(a.Column), expr: a.Expr, node: a})
	}
	conds := appendConjuncts(w.cbuf[:0], w.where)
	for _, on := range w.on {
		conds = appendConjuncts(conds, on)
	}
	w.asgs, w.conds = asgs[:len(asgs):len(asgs)], conds[:len(conds):len(conds)]
}

// unparen strips any parentheses around e.
func unparen(e sqlparse.ExprNode) sqlparse.ExprNode {
	for {
		p, ok := e.(*sqlparse.ParenthesesExpr)
		if !ok || p == nil {
			return e
		}
		e = p.Expr
	}
}

// columnOf returns the column e refers to when e is a plain column reference.
func columnOf(e sqlparse.ExprNode) (*sqlparse.ColumnName, bool) {
	ce, ok := unparen(e).(*sqlparse.ColumnNameExpr)
	if !ok || ce == nil || ce.Name == nil {
		return nil, false
	}
	return ce.Name, true
}

// conjuncts flattens the top-level ANDs of where, parentheses stripped. A
// condition inside an OR is not a conjunct: it does not hold for every row
// the statement writes.
func conjuncts(where sqlparse.ExprNode) []sqlparse.ExprNode {
	return appendConjuncts(nil, where)
}

// appendConjuncts appends the conjuncts of where to dst, left to right.
func appendConjuncts(dst []sqlparse.ExprNode, where sqlparse.ExprNode) []sqlparse.ExprNode {
	if where == nil {
		return dst
	}
	where = unparen(where)
	if b, ok := where.(*sqlparse.BinaryOperationExpr); ok && b.Op == sqlparse.OpLogicAnd {
		return appendConjuncts(appendConjuncts(dst, b.L), b.R)
	}
	return append(dst, where)
}

// filters returns the conjuncts of the WHERE clause and of the JOIN ON
// conditions: together they restrict the rows a multi-table write touches.
func (w *write) filters() []sqlparse.ExprNode {
	w.fill()
	return w.conds
}

// isCounter reports whether column c is a counter. A table the schema knows
// must also have the column; otherwise the policy decides on the names alone.
func isCounter(pass *lint.Pass, c colRef) bool {
	if c.t != nil && c.t.table != nil && c.t.table.Column(c.name) == nil {
		return false
	}
	return pass.Policy.IsCounter(c.t.tableName(), c.name)
}

// isState reports whether column c is a state column, like isCounter.
func isState(pass *lint.Pass, c colRef) bool {
	if c.t != nil && c.t.table != nil && c.t.table.Column(c.name) == nil {
		return false
	}
	return pass.Policy.IsState(c.t.tableName(), c.name)
}

// whereFromCaller reports whether st's WHERE is built at run time from what
// its caller passes (a MyBatis Generator ByExample statement: its text holds
// a neutral stand-in for the Example's criteria). A rule that would report a
// predicate as missing from such a WHERE stays silent, since it cannot see
// the predicate, unless the schema shows no predicate could be there (GQ003:
// a version compare on a table without a version column); a rule that
// judges the SET list alone still runs.
func whereFromCaller(st *lint.Statement) bool {
	return st.Fragment != nil && st.Fragment.WhereFromCaller
}

// mapperStatement identifies the statement of a mapper (or of a <script>)
// that a fragment renders: all its variants share it.
type mapperStatement struct {
	file      string
	line, col int
	id        string
}

// statementOf returns the statement fr renders.
func statementOf(fr *stmt.Fragment) mapperStatement {
	return mapperStatement{fr.File, fr.Line, fr.Col, fr.ID}
}

// versioned reports whether t is a table the schema gives the policy's
// version column; an unknown table is not versioned.
func versioned(pass *lint.Pass, t *target) bool {
	return t.hasColumn(pass.Policy.VersionColumn())
}

// versionRef returns the version column of t.
func (w *write) versionRef(pass *lint.Pass, t *target) colRef {
	name := pass.Policy.VersionColumn()
	if t != nil && t.table != nil {
		if c := t.table.Column(name); c != nil {
			name = c.Name
		}
	}
	return w.refNamed(t, name)
}
