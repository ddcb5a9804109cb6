package rules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// ClampedDecrement flags decrements that clamp at zero instead of failing.
var ClampedDecrement = &lint.Rule{
	Code:    "GQ006",
	Name:    "clamped-decrement",
	Summary: "`GREATEST(c - x, 0)`, `IF(c >= x, c - x, 0)`… hides insufficient stock",
	Doc: "Clamping a decrement at zero keeps the counter non-negative but turns an oversell into a " +
		"silent success: the statement changes the row (to 0), RowsAffected is 1, and the caller ships " +
		"goods or pays out money the counter never held. Insufficient stock must make the write fail, " +
		"which a guard in WHERE does atomically. (On an UNSIGNED column `c - x` below zero even fails " +
		"with error 1690 before GREATEST sees it.)",
	Fix: "decrement with a guard and fail on RowsAffected == 0: " +
		"`UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?`",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Run:      runClampedDecrement,
}

func runClampedDecrement(pass *lint.Pass) error {
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || (w.kind != writeUpdate && !w.upsert) {
			continue
		}
		for _, a := range w.assignments() {
			if !isCounter(pass, a.col) || !clamped(a.col, a.expr) {
				continue
			}
			table, col := a.col.t.tableName(), a.col.name
			pass.ReportStatement(st, table, col,
				"decrement of counter %s is clamped (%s): insufficient stock succeeds silently instead of "+
					"failing the write", qualified(table, col), exprText(a.expr))
		}
	}
	return nil
}

// clamped reports whether e is a decrement of c that stops at a floor rather
// than failing: GREATEST(c - x, 0), IF(c >= x, c - x, 0), IF(c - x < 0, 0,
// c - x), CASE WHEN c >= x THEN c - x ELSE 0 END, c - LEAST(c, x).
func clamped(c colRef, e sqlparse.ExprNode) bool {
	e = unparen(e)
	if amount, ok := decrementOf(c, e); ok {
		return clampedAmount(c, amount)
	}
	switch x := e.(type) {
	case *sqlparse.FuncCallExpr:
		switch x.FnName.L {
		case "greatest":
			return anyDecrement(c, x.Args...) && anyFloor(x.Args...)
		case "if":
			return len(x.Args) == 3 && anyDecrement(c, x.Args[1], x.Args[2]) && anyFloor(x.Args[1], x.Args[2])
		}
	case *sqlparse.CaseExpr:
		results := []sqlparse.ExprNode{}
		for _, w := range x.WhenClauses {
			results = append(results, w.Result)
		}
		if x.ElseClause != nil {
			results = append(results, x.ElseClause)
		}
		return anyDecrement(c, results...) && anyFloor(results...)
	}
	return false
}

// clampedAmount reports whether a decrement amount is LEAST(c, x): the
// decrement never takes more than c holds.
func clampedAmount(c colRef, amount sqlparse.ExprNode) bool {
	f, ok := unparen(amount).(*sqlparse.FuncCallExpr)
	if !ok || f.FnName.L != "least" {
		return false
	}
	for _, arg := range f.Args {
		if c.matches(arg) {
			return true
		}
	}
	return false
}

// anyDecrement reports whether one of es is a plain decrement of c.
func anyDecrement(c colRef, es ...sqlparse.ExprNode) bool {
	for _, e := range es {
		if e == nil {
			continue
		}
		if _, ok := decrementOf(c, e); ok {
			return true
		}
	}
	return false
}

// anyFloor reports whether one of es is the floor a clamp falls back to: a
// literal or a placeholder.
func anyFloor(es ...sqlparse.ExprNode) bool {
	for _, e := range es {
		if e == nil {
			continue
		}
		if _, ok := numberOf(e); ok || isParam(e) {
			return true
		}
	}
	return false
}
