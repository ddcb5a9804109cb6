package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// The expression side of the statement analysis: what an assignment computes
// and what the WHERE conjuncts prove about a column.

// exprText is the canonical text of e, used to compare two expressions.
func exprText(e sqlparse.ExprNode) string {
	if e == nil {
		return ""
	}
	return sqlparse.RestoreText(unparen(e))
}

// sameExpr reports whether a and b are the same expression. Two `?`
// placeholders count as the same: the caller binds the same amount twice.
func sameExpr(a, b sqlparse.ExprNode) bool {
	if a == nil || b == nil {
		return false
	}
	if isParam(a) && isParam(b) {
		return true
	}
	ta := exprText(a)
	return ta != "" && ta == exprText(b)
}

// isParam reports whether e is a `?` placeholder.
func isParam(e sqlparse.ExprNode) bool {
	_, ok := unparen(e).(sqlparse.ParamMarkerExpr)
	return ok
}

// numberOf returns the value of a numeric literal, negated literals included.
func numberOf(e sqlparse.ExprNode) (float64, bool) {
	e = unparen(e)
	if u, ok := e.(*sqlparse.UnaryOperationExpr); ok {
		switch u.Op {
		case sqlparse.OpMinus:
			v, ok := numberOf(u.V)
			return -v, ok
		case sqlparse.OpPlus:
			return numberOf(u.V)
		}
		return 0, false
	}
	if _, ok := e.(sqlparse.ParamMarkerExpr); ok {
		return 0, false
	}
	v, ok := e.(sqlparse.ValueExpr)
	if !ok {
		return 0, false
	}
	switch x := v.GetValue().(type) {
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case fmt.Stringer: // decimal literals
		f, err := strconv.ParseFloat(x.String(), 64)
		return f, err == nil
	}
	return 0, false
}

// decrementOf recognises a decrement of column c: `c - x` and `c + -x`.
// It returns the amount x.
func decrementOf(c colRef, e sqlparse.ExprNode) (amount sqlparse.ExprNode, ok bool) {
	b, isBin := unparen(e).(*sqlparse.BinaryOperationExpr)
	if !isBin || b == nil || !c.matches(b.L) {
		return nil, false
	}
	switch b.Op {
	case sqlparse.OpMinus:
		if n, lit := numberOf(b.R); lit && n <= 0 {
			return nil, false // c - 0 or c - -1 does not decrease c
		}
		return b.R, true
	case sqlparse.OpPlus:
		if u, neg := unparen(b.R).(*sqlparse.UnaryOperationExpr); neg && u.Op == sqlparse.OpMinus {
			if n, lit := numberOf(u.V); lit && n <= 0 {
				return nil, false
			}
			return u.V, true
		}
	}
	return nil, false
}

// incrementOf reports whether e raises column c by an amount not known to
// be negative: `c + x`, `x + c`, `c - -1`. Such a write refuses nothing
// unless a conjunct of its WHERE says when.
func incrementOf(c colRef, e sqlparse.ExprNode) bool {
	b, isBin := unparen(e).(*sqlparse.BinaryOperationExpr)
	if !isBin || b == nil {
		return false
	}
	var step sqlparse.ExprNode
	switch {
	case b.Op == sqlparse.OpPlus && c.matches(b.L):
		step = b.R
	case b.Op == sqlparse.OpPlus && c.matches(b.R):
		step = b.L
	case b.Op == sqlparse.OpMinus && c.matches(b.L):
		n, lit := numberOf(b.R)
		return lit && n < 0
	default:
		return false
	}
	if u, neg := unparen(step).(*sqlparse.UnaryOperationExpr); neg && u.Op == sqlparse.OpMinus {
		return false
	}
	n, lit := numberOf(step)
	return !lit || n >= 0
}

// guardsAtLeast reports whether one of conds (top-level conjuncts) implies
// c >= amount: `c >= amount`, `amount <= c`, `c - amount >= 0`,
// `0 <= c - amount`, `c BETWEEN amount AND …`, and for a literal amount n a
// literal bound `c >= N` (N >= n) or `c > N` (N >= n-1), so `c > 0` guards a
// decrement of 1 only.
func guardsAtLeast(conds []sqlparse.ExprNode, c colRef, amount sqlparse.ExprNode) bool {
	return guardsBranchAtLeast(conds, c, amount, branch{})
}

// guardsBranchAtLeast is guardsAtLeast for the rows of one branch of a
// batched CASE: a guard may also be written per row as a CASE of the same
// shape, `c >= CASE k WHEN ? THEN ? … END` or `CASE k WHEN ? THEN c >= ? …
// END`, and is read at the branch.
func guardsBranchAtLeast(conds []sqlparse.ExprNode, c colRef, amount sqlparse.ExprNode, b branch) bool {
	for _, e := range conds {
		if guardAtLeast(e, c, amount, b) {
			return true
		}
	}
	return false
}

func guardAtLeast(e sqlparse.ExprNode, c colRef, amount sqlparse.ExprNode, b branch) bool {
	if picked, null := b.pick(e); null {
		return true // NULL on the branch's rows: the statement writes none of them
	} else if picked != e {
		for _, p := range conjuncts(picked) {
			if guardAtLeast(p, c, amount, branch{}) {
				return true
			}
		}
		return false
	}
	if bt, ok := e.(*sqlparse.BetweenExpr); ok {
		return !bt.Not && c.matches(bt.Expr) && lowerBound(bt.Left, amount, false, b)
	}
	bin, ok := e.(*sqlparse.BinaryOperationExpr)
	if !ok {
		return false
	}
	l, r, op := bin.L, bin.R, bin.Op
	// Put the column side on the left: `x <= c` is `c >= x`.
	switch op {
	case sqlparse.OpLE:
		l, r, op = r, l, sqlparse.OpGE
	case sqlparse.OpLT:
		l, r, op = r, l, sqlparse.OpGT
	}
	if op != sqlparse.OpGE && op != sqlparse.OpGT {
		return false
	}
	if c.matches(l) {
		return lowerBound(r, amount, op == sqlparse.OpGT, b)
	}
	// c - amount >= 0 (or > -1).
	if d, ok := decrementOf(c, l); ok {
		if picked, null := b.pick(d); null || !sameExpr(picked, amount) {
			return null
		}
		n, lit := numberOf(r)
		return lit && (n >= 0 || (op == sqlparse.OpGT && n >= -1))
	}
	return false
}

// lowerBound reports whether `c >= bound` (strict: `c > bound`) implies
// c >= amount on the rows of b.
func lowerBound(bound, amount sqlparse.ExprNode, strict bool, b branch) bool {
	bound, null := b.pick(bound)
	if null {
		return true // c >= NULL writes no row
	}
	if !strict && sameExpr(bound, amount) {
		return true
	}
	n, ok1 := numberOf(bound)
	a, ok2 := numberOf(amount)
	if !ok1 || !ok2 {
		return false
	}
	if strict {
		// Counters are integers: c > N means c >= N+1.
		return n >= a-1
	}
	return n >= a
}

// comparesAndSets reports whether the write is a compare-and-set of its row
// on some column of t other than the policy's version column: a conjunct
// `c = ?` on a column the SET list also writes (`SET …, update_time = ?
// WHERE id = ? AND update_time = ?`, an optimistic lock on a timestamp).
// Only one writer that read the row finds it unchanged.
func (w *write) comparesAndSets(pass *lint.Pass, conds []sqlparse.ExprNode, t *target) bool {
	if t == nil {
		return false
	}
	for _, a := range w.assignments() {
		// A key the SET list repeats (id = #{id} … WHERE id = #{id}) names
		// the row; it does not compare its state.
		if a.col.t != t || relativeTo(a.col, a.expr) || identifying(pass.Schema, t.tableName(), a.col.name, pass.Policy) {
			continue
		}
		for _, e := range conds {
			b, ok := e.(*sqlparse.BinaryOperationExpr)
			if !ok || b.Op != sqlparse.OpEQ {
				continue
			}
			if (a.col.matches(b.L) && isParam(b.R)) || (a.col.matches(b.R) && isParam(b.L)) {
				return true
			}
		}
	}
	return false
}

// hasVersionPredicate reports whether a top-level conjunct of conds compares
// the version column v for equality: `version = ?`, `? = version`.
func hasVersionPredicate(conds []sqlparse.ExprNode, v colRef) bool {
	for _, e := range conds {
		b, ok := e.(*sqlparse.BinaryOperationExpr)
		if !ok || (b.Op != sqlparse.OpEQ && b.Op != sqlparse.OpNullEQ) {
			continue
		}
		if v.matches(b.L) || v.matches(b.R) {
			return true
		}
	}
	return false
}

// mentions reports whether a top-level conjunct of conds refers to column c:
// `status = ?`, `status IN (…)`, `status <> 'done'`. A conjunct that is an
// OR counts only when each of its branches refers to c.
func mentions(conds []sqlparse.ExprNode, c colRef) bool {
	for _, e := range conds {
		if mentionsExpr(e, c) {
			return true
		}
	}
	return false
}

func mentionsExpr(e sqlparse.ExprNode, c colRef) bool {
	e = unparen(e)
	if b, ok := e.(*sqlparse.BinaryOperationExpr); ok {
		switch b.Op {
		case sqlparse.OpLogicOr:
			return mentionsExpr(b.L, c) && mentionsExpr(b.R, c)
		case sqlparse.OpLogicAnd:
			return mentionsExpr(b.L, c) || mentionsExpr(b.R, c)
		}
	}
	f := &columnFinder{c: c}
	e.Accept(f)
	return f.found
}

// columnFinder looks for a reference to one column in an expression,
// without descending into subqueries (their columns are other tables').
type columnFinder struct {
	c     colRef
	found bool
}

// Enter implements sqlparse.Visitor.
func (f *columnFinder) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	switch x := n.(type) {
	case *sqlparse.SubqueryExpr:
		return n, true
	case *sqlparse.ColumnNameExpr:
		if f.c.matches(x) {
			f.found = true
		}
	}
	return n, f.found
}

// Leave implements sqlparse.Visitor.
func (f *columnFinder) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// bumpsVersion reports whether one of the assignments moves version column v
// forward relative to itself: `version = version + 1` (any positive literal
// or a `?`), `version = 1 + version`.
func bumpsVersion(as []assignment, v colRef) bool {
	for _, a := range as {
		if a.col.t != v.t || !strings.EqualFold(a.col.name, v.name) {
			continue
		}
		b, ok := unparen(a.expr).(*sqlparse.BinaryOperationExpr)
		if !ok || b.Op != sqlparse.OpPlus {
			continue
		}
		step := sqlparse.ExprNode(nil)
		switch {
		case v.matches(b.L):
			step = b.R
		case v.matches(b.R):
			step = b.L
		default:
			continue
		}
		if isParam(step) {
			return true
		}
		if n, lit := numberOf(step); lit && n > 0 {
			return true
		}
	}
	return false
}

// relativeTo reports whether e computes a new value of c from c itself
// (`c + x`, `c - x`, `x + c`, also inside functions such as GREATEST(c - x,
// 0)); an absolute write does not.
func relativeTo(c colRef, e sqlparse.ExprNode) bool {
	f := &columnFinder{c: c}
	e.Accept(f)
	return f.found
}
