package rules

import (
	"github.com/guard-sql/guard/internal/sqlparse"
)

// Signed amounts: `c = c + ?` whose ? some caller binds to a negated
// amount (-qty) lowers c by that amount, as `c = c - ?` with qty would.
// The analysis reads such a statement with each `x + ?` of those
// placeholders turned into `x - ?`, in the value and in the filters, and
// judges the decrement that reading shows like any other: GREATEST(c + ?,
// 0) is a clamp, `c + ? >= 0` in the WHERE a guard. The nodes it builds
// serve the analysis only; what a finding prints is the statement's own.

// signedDecrement analyses a as the decrement it is when its value adds a
// placeholder of negated; the decrement names the call that negates it.
func signedDecrement(a assignment, conds []sqlparse.ExprNode, negated map[sqlparse.ParamMarkerExpr]string) (decrement, bool) {
	if negated == nil {
		return decrement{}, false
	}
	f := &signFlip{negated: negated, orig: map[sqlparse.ExprNode]sqlparse.ExprNode{}}
	e := f.flip(a.expr)
	call := f.call
	if call == "" {
		return decrement{}, false
	}
	flipped := make([]sqlparse.ExprNode, len(conds))
	for i, c := range conds {
		flipped[i] = f.flip(c)
	}
	fa := a
	fa.expr = e
	d, ok := analyseDecrement(fa, flipped)
	if !ok {
		return decrement{}, false
	}
	d.assignment, d.signedBy = a, call
	for i := range d.arms {
		if o, ok := f.orig[d.arms[i].clamp]; ok {
			d.arms[i].clamp = o
		}
	}
	if d.batch != nil {
		if o, ok := f.orig[d.batch].(*sqlparse.CaseExpr); ok {
			d.batch = o
		}
	}
	return d, true
}

// signFlip rewrites expressions, `x + ?` into `x - ?` for the placeholders
// of negated, remembering the node each rewritten one stands for.
type signFlip struct {
	negated map[sqlparse.ParamMarkerExpr]string
	orig    map[sqlparse.ExprNode]sqlparse.ExprNode
	// call is the call negating the first placeholder rewritten.
	call string
}

// flip returns e rewritten; e itself when nothing in it changes.
func (f *signFlip) flip(e sqlparse.ExprNode) sqlparse.ExprNode {
	switch x := e.(type) {
	case *sqlparse.BinaryOperationExpr:
		l, r := f.flip(x.L), f.flip(x.R)
		if x.Op == sqlparse.OpPlus {
			for _, pair := range [][2]sqlparse.ExprNode{{l, r}, {r, l}} {
				if m, ok := unparen(pair[1]).(sqlparse.ParamMarkerExpr); ok && f.negated[m] != "" {
					if f.call == "" {
						f.call = f.negated[m]
					}
					return f.made(x, &sqlparse.BinaryOperationExpr{Op: sqlparse.OpMinus, L: pair[0], R: m})
				}
			}
		}
		if l != x.L || r != x.R {
			return f.made(x, &sqlparse.BinaryOperationExpr{Op: x.Op, L: l, R: r})
		}
	case *sqlparse.ParenthesesExpr:
		if in := f.flip(x.Expr); in != x.Expr {
			return f.made(x, &sqlparse.ParenthesesExpr{Expr: in})
		}
	case *sqlparse.FuncCallExpr:
		args, changed := f.flipAll(x.Args)
		if changed {
			n := *x
			n.Args = args
			return f.made(x, &n)
		}
	case *sqlparse.CaseExpr:
		return f.flipCase(x)
	}
	return e
}

// flipAll flips each of es, reporting whether one changed.
func (f *signFlip) flipAll(es []sqlparse.ExprNode) ([]sqlparse.ExprNode, bool) {
	out := make([]sqlparse.ExprNode, len(es))
	changed := false
	for i, e := range es {
		out[i] = f.flip(e)
		changed = changed || out[i] != e
	}
	return out, changed
}

// flipCase flips the results and conditions of a CASE; its operand picks
// a branch and is kept.
func (f *signFlip) flipCase(x *sqlparse.CaseExpr) sqlparse.ExprNode {
	n := *x
	n.WhenClauses = make([]*sqlparse.WhenClause, len(x.WhenClauses))
	changed := false
	for i, w := range x.WhenClauses {
		cond, res := f.flip(w.Expr), f.flip(w.Result)
		n.WhenClauses[i] = w
		if cond != w.Expr || res != w.Result {
			n.WhenClauses[i] = &sqlparse.WhenClause{Expr: cond, Result: res}
			changed = true
		}
	}
	if x.ElseClause != nil {
		n.ElseClause = f.flip(x.ElseClause)
		changed = changed || n.ElseClause != x.ElseClause
	}
	if !changed {
		return x
	}
	return f.made(x, &n)
}

// made records that n stands for o and returns n.
func (f *signFlip) made(o, n sqlparse.ExprNode) sqlparse.ExprNode {
	f.orig[n] = o
	return n
}
