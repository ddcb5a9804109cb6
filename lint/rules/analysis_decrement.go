package rules

import (
	"github.com/guard-sql/guard/internal/sqlparse"
)

// The decrement side of the statement analysis: what a SET item does to a
// column that it lowers, computed once per statement for GQ002 (a decrement
// no WHERE conjunct guards), GQ006 (a decrement that clamps instead of
// failing) and GQ011 (a guarded decrement whose result must be compared).
//
// A plain decrement `c = c - x` has one arm. A batched update, `c = CASE k
// WHEN ? THEN c - ? WHEN ? THEN c - ? … END WHERE k IN (…)` (the shape a
// MyBatis <foreach> builds, one branch per row), has one arm per branch that
// lowers c, and each arm is judged as its own decrement: it needs a WHERE
// conjunct implying c >= its amount on the rows it writes. A branch that
// adds, that keeps c (`ELSE c`) or that writes an absolute value is no arm.

// decrement is one SET item that lowers its column.
type decrement struct {
	assignment
	// arms are the ways the item lowers the column: one for a plain
	// decrement, one per lowering branch of a batched CASE.
	arms []decrementArm
	// batch is the CASE that picks a branch per row; nil for a plain
	// decrement.
	batch *sqlparse.CaseExpr
	// signedBy is, for `c = c + ?` whose ? a caller binds to a negated
	// amount, that call: the item lowers c.
	signedBy string
}

// decrementArm is one way a decrement lowers its column.
type decrementArm struct {
	// amount is what the arm subtracts; nil for a clamp whose amount is not
	// one expression.
	amount sqlparse.ExprNode
	// clamp is the expression that makes the arm stop at a floor, or keep
	// the column, when it holds too little (GREATEST(c - x, 0), c -
	// LEAST(c, x), a batch branch IF(c >= x, c - x, c)); nil for an arm that
	// subtracts whatever the column holds.
	clamp sqlparse.ExprNode
	// guarded reports, for an arm without clamp, that the statement's
	// filters imply c >= amount on every row the arm writes.
	guarded bool
}

// unguarded returns the arms that subtract whatever the column holds with
// no WHERE conjunct refusing the oversell.
func (d *decrement) unguarded() []decrementArm {
	var out []decrementArm
	for _, a := range d.arms {
		if a.clamp == nil && !a.guarded {
			out = append(out, a)
		}
	}
	return out
}

// clamps returns the arms that clamp instead of failing.
func (d *decrement) clamps() []decrementArm {
	var out []decrementArm
	for _, a := range d.arms {
		if a.clamp != nil {
			out = append(out, a)
		}
	}
	return out
}

// fullyGuarded reports whether every arm of d is refused by the statement's
// filters when the column holds too little: the write's success is then the
// count of rows it changed.
func (d *decrement) fullyGuarded() bool {
	for _, a := range d.arms {
		if a.clamp != nil || !a.guarded {
			return false
		}
	}
	return len(d.arms) > 0
}

// decrements returns the SET items of w that lower their column. The
// analysis does not ask the policy: the rules decide which columns are
// counters.
func (w *write) decrements() []decrement {
	return w.decs
}

// analyseDecrements computes w.decs; the filters of an INSERT's ON
// DUPLICATE KEY UPDATE guard nothing.
func analyseDecrements(w *write) []decrement {
	var conds []sqlparse.ExprNode
	if w.kind == writeUpdate {
		conds = w.filters()
	}
	var out []decrement
	for _, a := range w.assignments() {
		if d, ok := analyseDecrement(a, conds); ok {
			out = append(out, d)
		} else if d, ok := signedDecrement(a, conds, w.negated); ok {
			out = append(out, d)
		}
	}
	return out
}

// signedIncrement recognises `c = c + ?` whose ? some caller binds to a
// negated amount, and returns the placeholder and that call (see
// analysis_signed.go for the decrement it is).
func signedIncrement(a assignment, negated map[sqlparse.ParamMarkerExpr]string) (sqlparse.ExprNode, string, bool) {
	if negated == nil {
		return nil, "", false
	}
	b, ok := unparen(a.expr).(*sqlparse.BinaryOperationExpr)
	if !ok || b.Op != sqlparse.OpPlus {
		return nil, "", false
	}
	for _, pair := range [][2]sqlparse.ExprNode{{b.L, b.R}, {b.R, b.L}} {
		if m, ok := unparen(pair[1]).(sqlparse.ParamMarkerExpr); ok && a.col.matches(pair[0]) {
			if call, ok := negated[m]; ok {
				return m, call, true
			}
		}
	}
	return nil, "", false
}

// analyseDecrement reports how a lowers its column, if it does.
func analyseDecrement(a assignment, conds []sqlparse.ExprNode) (decrement, bool) {
	d := decrement{assignment: a}
	c, e := a.col, unparen(a.expr)
	if cs, ok := e.(*sqlparse.CaseExpr); ok && batchCase(c, cs) {
		d.batch = cs
		keepsOnFallThrough := cs.ElseClause != nil && c.matches(cs.ElseClause)
		floorOnFallThrough := cs.ElseClause != nil && anyFloor(cs.ElseClause)
		for i, wc := range cs.WhenClauses {
			arm, ok := batchArm(c, wc.Result, conds, branch{cs, i})
			if !ok {
				continue
			}
			// `WHEN k = ? AND c >= ? THEN c - ?`: a row with too little
			// falls through to the ELSE, which keeps or floors it silently.
			if arm.clamp == nil && cs.Value == nil && guardsAtLeast(conjuncts(wc.Expr), c, arm.amount) {
				if !keepsOnFallThrough && !floorOnFallThrough {
					// Without such an ELSE the row gets NULL or another
					// value: not a clamp this analysis can vouch for.
					continue
				}
				arm.clamp, arm.guarded = wc.Expr, false
			}
			d.arms = append(d.arms, arm)
		}
		if cs.ElseClause != nil {
			if arm, ok := batchArm(c, cs.ElseClause, conds, branch{cs, -1}); ok {
				d.arms = append(d.arms, arm)
			}
		}
		return d, len(d.arms) > 0
	}
	if amount, ok := decrementOf(c, e); ok {
		arm := decrementArm{amount: amount}
		if clampedAmount(c, amount) {
			arm.clamp = e
		} else {
			arm.guarded = guardsAtLeast(conds, c, amount)
		}
		d.arms = []decrementArm{arm}
		return d, true
	}
	if amount, ok := clampedDecrement(c, e); ok {
		d.arms = []decrementArm{{amount: amount, clamp: e}}
		return d, true
	}
	return d, false
}

// batchCase reports whether cs picks a value per row by a key rather than by
// the column's own value: `CASE k WHEN …` with k not c, or a searched CASE
// whose every WHEN has a conjunct that does not refer to c (`WHEN k = ?`).
// `CASE WHEN c >= ? THEN c - ? ELSE 0 END` is a clamp of one row instead.
func batchCase(c colRef, cs *sqlparse.CaseExpr) bool {
	if len(cs.WhenClauses) == 0 {
		return false
	}
	if cs.Value != nil {
		return !relativeTo(c, cs.Value)
	}
	for _, wc := range cs.WhenClauses {
		selects := false
		for _, e := range conjuncts(wc.Expr) {
			if !relativeTo(c, e) {
				selects = true
				break
			}
		}
		if !selects {
			return false
		}
	}
	return true
}

// batchArm analyses one branch result r of a batched CASE: a decrement `c -
// x` (guarded when the filters imply c >= x for the branch's rows), a clamp
// (GREATEST(c - x, 0), c - LEAST(c, x)), or a branch that keeps c when it
// holds too little (IF(c >= x, c - x, c)): in a batch that skips the row
// silently while the rest of the batch is written. Anything else is no arm.
func batchArm(c colRef, r sqlparse.ExprNode, conds []sqlparse.ExprNode, b branch) (decrementArm, bool) {
	r = unparen(r)
	if amount, ok := decrementOf(c, r); ok {
		if clampedAmount(c, amount) {
			return decrementArm{amount: amount, clamp: r}, true
		}
		return decrementArm{amount: amount, guarded: guardsBranchAtLeast(conds, c, amount, b)}, true
	}
	if amount, ok := clampedDecrement(c, r); ok {
		return decrementArm{amount: amount, clamp: r}, true
	}
	if amount, ok := keepsWhenShort(c, r); ok {
		return decrementArm{amount: amount, clamp: r}, true
	}
	return decrementArm{}, false
}

// keepsWhenShort recognises a decrement that keeps c unchanged when c holds
// too little: IF(c >= x, c - x, c), IF(c < x, c, c - x) and CASE WHEN c >=
// x THEN c - x ELSE c END. It returns the amount x.
func keepsWhenShort(c colRef, e sqlparse.ExprNode) (sqlparse.ExprNode, bool) {
	var cond, then, els sqlparse.ExprNode
	switch x := unparen(e).(type) {
	case *sqlparse.FuncCallExpr:
		if x.FnName.L != "if" || len(x.Args) != 3 {
			return nil, false
		}
		cond, then, els = x.Args[0], x.Args[1], x.Args[2]
	case *sqlparse.CaseExpr:
		if x.Value != nil || len(x.WhenClauses) != 1 || x.ElseClause == nil {
			return nil, false
		}
		cond, then, els = x.WhenClauses[0].Expr, x.WhenClauses[0].Result, x.ElseClause
	default:
		return nil, false
	}
	if amount, ok := decrementOf(c, then); ok && c.matches(els) && guardsAtLeast(conjuncts(cond), c, amount) {
		return amount, true
	}
	if amount, ok := decrementOf(c, els); ok && c.matches(then) {
		if neg := negated(cond); neg != nil && guardAtLeast(neg, c, amount, branch{}) {
			return amount, true
		}
	}
	return nil, false
}

// negated returns the comparison that holds exactly when cond is false for
// non-NULL operands (`c < x` gives `c >= x`), or nil when cond is not such a
// comparison. The node is built for analysis only, never printed.
func negated(cond sqlparse.ExprNode) sqlparse.ExprNode {
	cond = unparen(cond)
	if u, ok := cond.(*sqlparse.UnaryOperationExpr); ok && (u.Op == sqlparse.OpNot || u.Op == sqlparse.OpNot2) {
		return unparen(u.V)
	}
	b, ok := cond.(*sqlparse.BinaryOperationExpr)
	if !ok {
		return nil
	}
	n := &sqlparse.BinaryOperationExpr{L: b.L, R: b.R}
	switch b.Op {
	case sqlparse.OpLT:
		n.Op = sqlparse.OpGE
	case sqlparse.OpGE:
		n.Op = sqlparse.OpLT
	case sqlparse.OpGT:
		n.Op = sqlparse.OpLE
	case sqlparse.OpLE:
		n.Op = sqlparse.OpGT
	default:
		return nil
	}
	return n
}

// branch names one branch of a batched CASE, so that a guard written as a
// CASE of the same shape (`c >= CASE k WHEN ? THEN ? … END`) is read at the
// same branch. The zero branch stands for a plain decrement.
type branch struct {
	cs *sqlparse.CaseExpr
	// i is the index of the WHEN clause, or -1 for the ELSE.
	i int
}

// pick returns what e is on the rows of b: the result of b's branch when e is
// a CASE with the same selector as b's CASE, else e itself. null reports a
// CASE of the same selector with no result for the branch (no ELSE): it is
// NULL there, and a WHERE conjunct that is NULL writes no row.
func (b branch) pick(e sqlparse.ExprNode) (picked sqlparse.ExprNode, null bool) {
	if b.cs == nil {
		return e, false
	}
	ce, ok := unparen(e).(*sqlparse.CaseExpr)
	if !ok || !sameSelector(b.cs, ce) {
		return e, false
	}
	if b.i < 0 {
		return ce.ElseClause, ce.ElseClause == nil
	}
	return ce.WhenClauses[b.i].Result, false
}

// sameSelector reports whether two CASE expressions pick their branch the
// same way: the same operand and the same WHEN expressions, in order.
func sameSelector(a, b *sqlparse.CaseExpr) bool {
	if (a.Value == nil) != (b.Value == nil) || len(a.WhenClauses) != len(b.WhenClauses) {
		return false
	}
	if a.Value != nil && !sameExpr(a.Value, b.Value) {
		return false
	}
	for i := range a.WhenClauses {
		if !sameExpr(a.WhenClauses[i].Expr, b.WhenClauses[i].Expr) {
			return false
		}
	}
	return true
}
