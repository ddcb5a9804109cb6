package schema

import "github.com/guard-sql/guard/internal/sqlparse"

// canonicalExpr rewrites an expression the way MariaDB does before it stores
// and prints a CHECK, so that a CHECK written in a migration and the server's
// text of it restore to the same string: NOT is pushed into comparisons,
// BETWEEN, IN, IS NULL, LIKE, AND and OR (NOT (q < 0) is q >= 0, NOT col is
// col = 0), and the parentheses the server drops go (around a whole
// expression, names, literals and function calls, comparisons inside AND/OR,
// arithmetic inside comparisons).
func canonicalExpr(e sqlparse.ExprNode) sqlparse.ExprNode {
	e = unparen(e)
	if e == nil {
		return nil
	}
	if n, ok := e.Accept(canonicalizer{}); ok {
		if x, ok := n.(sqlparse.ExprNode); ok {
			return unparen(x)
		}
	}
	return e
}

// canonicalizer rewrites a syntax tree bottom-up for canonicalExpr.
type canonicalizer struct{}

func (canonicalizer) Enter(n sqlparse.Node) (sqlparse.Node, bool) { return n, false }

func (canonicalizer) Leave(n sqlparse.Node) (sqlparse.Node, bool) {
	switch x := n.(type) {
	case *sqlparse.UnaryOperationExpr:
		if x.Op == sqlparse.OpNot || x.Op == sqlparse.OpNot2 {
			// In parentheses, which the parent drops where that is safe.
			return negateOrNot(x.V), true
		}
	case *sqlparse.ParenthesesExpr:
		switch x.Expr.(type) {
		case *sqlparse.ParenthesesExpr, *sqlparse.ColumnNameExpr, *sqlparse.FuncCallExpr:
			return x.Expr, true
		}
		if _, ok := sqlparse.LiteralOf(x.Expr); ok {
			if _, neg := x.Expr.(*sqlparse.UnaryOperationExpr); !neg {
				return x.Expr, true
			}
		}
	case *sqlparse.BinaryOperationExpr:
		switch {
		case isLogic(x):
			keep := func(in sqlparse.ExprNode) bool { return isComparison(in) || sameLogic(in, x) || andUnderOr(in, x) }
			x.L = stripIf(x.L, keep)
			x.R = stripIf(x.R, keep)
		case isComparisonOp(x):
			x.L = stripIf(x.L, isArithmetic)
			x.R = stripIf(x.R, isArithmetic)
		}
	}
	return n, true
}

// negate returns NOT e without the NOT, where MariaDB has such a form. ok is
// false when NOT must stay.
func negate(e sqlparse.ExprNode) (sqlparse.ExprNode, bool) {
	switch x := unparen(e).(type) {
	case *sqlparse.BinaryOperationExpr:
		switch {
		case isComparisonOp(x) && x.Op != sqlparse.OpNullEQ:
			switch x.Op {
			case sqlparse.OpEQ:
				x.Op = sqlparse.OpNE
			case sqlparse.OpNE:
				x.Op = sqlparse.OpEQ
			case sqlparse.OpLT:
				x.Op = sqlparse.OpGE
			case sqlparse.OpGE:
				x.Op = sqlparse.OpLT
			case sqlparse.OpGT:
				x.Op = sqlparse.OpLE
			case sqlparse.OpLE:
				x.Op = sqlparse.OpGT
			}
			return x, true
		case isLogic(x):
			// De Morgan, with NOT kept on operands that cannot absorb it.
			x.L, x.R = negateOrNot(x.L), negateOrNot(x.R)
			if x.Op == sqlparse.OpLogicAnd {
				x.Op = sqlparse.OpLogicOr
			} else {
				x.Op = sqlparse.OpLogicAnd
			}
			keep := func(in sqlparse.ExprNode) bool { return isComparison(in) || sameLogic(in, x) || andUnderOr(in, x) }
			x.L, x.R = stripIf(x.L, keep), stripIf(x.R, keep)
			return x, true
		}
	case *sqlparse.BetweenExpr:
		x.Not = !x.Not
		return x, true
	case *sqlparse.PatternInExpr:
		x.Not = !x.Not
		return x, true
	case *sqlparse.IsNullExpr:
		x.Not = !x.Not
		return x, true
	case *sqlparse.PatternLikeOrIlikeExpr:
		x.Not = !x.Not
		return x, true
	case *sqlparse.ColumnNameExpr:
		return &sqlparse.BinaryOperationExpr{Op: sqlparse.OpEQ, L: x, R: sqlparse.NewIntLiteral(0)}, true
	case *sqlparse.UnaryOperationExpr:
		if x.Op != sqlparse.OpNot && x.Op != sqlparse.OpNot2 {
			return nil, false
		}
		inner := unparen(x.V)
		if isBoolean(inner) {
			return inner, true
		}
		return &sqlparse.BinaryOperationExpr{Op: sqlparse.OpNE, L: inner, R: sqlparse.NewIntLiteral(0)}, true
	}
	return nil, false
}

// negateOrNot returns NOT e: rewritten by negate (in parentheses, which the
// parent drops where that is safe), or else as !e, the form MariaDB prints,
// with e in parentheses unless it is a name, a literal or a call.
func negateOrNot(e sqlparse.ExprNode) sqlparse.ExprNode {
	if neg, ok := negate(e); ok {
		return &sqlparse.ParenthesesExpr{Expr: neg}
	}
	v := unparen(e)
	switch v.(type) {
	case *sqlparse.ColumnNameExpr, *sqlparse.FuncCallExpr:
	default:
		if _, lit := sqlparse.LiteralOf(v); !lit {
			v = &sqlparse.ParenthesesExpr{Expr: v}
		}
	}
	// ! binds tighter than any operator: it needs no parentheses of its own.
	return &sqlparse.UnaryOperationExpr{Op: sqlparse.OpNot2, V: v}
}

// isBoolean reports whether e yields a truth value, so that NOT NOT e is e.
func isBoolean(e sqlparse.ExprNode) bool {
	switch x := e.(type) {
	case *sqlparse.BinaryOperationExpr:
		return isComparisonOp(x) || isLogic(x) || x.Op == sqlparse.OpLogicXor
	case *sqlparse.BetweenExpr, *sqlparse.PatternInExpr, *sqlparse.IsNullExpr, *sqlparse.IsTruthExpr,
		*sqlparse.PatternLikeOrIlikeExpr, *sqlparse.PatternRegexpExpr:
		return true
	case *sqlparse.UnaryOperationExpr:
		return x.Op == sqlparse.OpNot || x.Op == sqlparse.OpNot2
	}
	return false
}

func stripIf(e sqlparse.ExprNode, ok func(sqlparse.ExprNode) bool) sqlparse.ExprNode {
	if p, isParen := e.(*sqlparse.ParenthesesExpr); isParen && p.Expr != nil && ok(p.Expr) {
		return p.Expr
	}
	return e
}

func isLogic(b *sqlparse.BinaryOperationExpr) bool {
	return b.Op == sqlparse.OpLogicAnd || b.Op == sqlparse.OpLogicOr
}

func isComparisonOp(b *sqlparse.BinaryOperationExpr) bool {
	switch b.Op {
	case sqlparse.OpEQ, sqlparse.OpNE, sqlparse.OpLT, sqlparse.OpLE, sqlparse.OpGT, sqlparse.OpGE, sqlparse.OpNullEQ:
		return true
	}
	return false
}

func isComparison(e sqlparse.ExprNode) bool {
	switch x := e.(type) {
	case *sqlparse.BinaryOperationExpr:
		return isComparisonOp(x)
	case *sqlparse.BetweenExpr, *sqlparse.PatternInExpr, *sqlparse.IsNullExpr, *sqlparse.PatternLikeOrIlikeExpr:
		return true
	}
	return false
}

// sameLogic reports whether e is the same logical operator as parent, whose
// operands can go without parentheses (AND and OR are associative).
func sameLogic(e sqlparse.ExprNode, parent *sqlparse.BinaryOperationExpr) bool {
	b, ok := e.(*sqlparse.BinaryOperationExpr)
	return ok && b.Op == parent.Op
}

// andUnderOr reports whether e is an AND under an OR, which binds tighter.
func andUnderOr(e sqlparse.ExprNode, parent *sqlparse.BinaryOperationExpr) bool {
	b, ok := e.(*sqlparse.BinaryOperationExpr)
	return ok && parent.Op == sqlparse.OpLogicOr && b.Op == sqlparse.OpLogicAnd
}

func isArithmetic(e sqlparse.ExprNode) bool {
	b, ok := e.(*sqlparse.BinaryOperationExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case sqlparse.OpPlus, sqlparse.OpMinus, sqlparse.OpMul, sqlparse.OpDiv, sqlparse.OpMod, sqlparse.OpIntDiv:
		return true
	}
	return false
}
