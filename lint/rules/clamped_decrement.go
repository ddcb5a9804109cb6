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
		"with error 1690 before GREATEST sees it.) In a batched update a branch such as `WHEN ? THEN " +
		"IF(c >= ?, c - ?, c)` is a clamp too: the short row is skipped while the rest of the batch is written.",
	Fix: "decrement with a guard and fail on RowsAffected == 0: " +
		"`UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?`",
	Kind:         lint.KindQuery,
	Severity:     policy.SevError,
	Races:        true,
	PerStatement: true,
	Run:          runClampedDecrement,
}

func runClampedDecrement(pass *lint.Pass) error {
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || (w.kind != writeUpdate && !w.upsert) {
			continue
		}
		for _, d := range w.decrements() {
			if !isCounter(pass, d.col) {
				continue
			}
			cl := d.clamps()
			if len(cl) == 0 {
				continue
			}
			table, col := d.col.t.tableName(), d.col.name
			fix := decrementFix(st, w, &d, cl[0], true)
			clamp := exprText(cl[0].clamp)
			if d.signedBy != "" {
				clamp += ", where " + d.signedBy
			}
			if d.batch == nil {
				pass.ReportStatementFix(st, table, col, fix,
					"decrement of counter %s is clamped (%s): insufficient stock succeeds silently instead of "+
						"failing the write", qualified(table, col), clamp)
				continue
			}
			pass.ReportStatementFix(st, table, col, fix,
				"decrement of counter %s is clamped in a branch of a batched CASE (%s): a row with too little "+
					"stock is floored or left unchanged while the rest of the batch is written, and the "+
					"statement succeeds instead of failing", qualified(table, col), clamp)
		}
	}
	return nil
}

// clampedDecrement recognises a decrement of c that stops at a floor rather
// than failing: GREATEST(c - x, 0), IF(c >= x, c - x, 0), IF(c - x < 0, 0,
// c - x), CASE WHEN c >= x THEN c - x ELSE 0 END, c - LEAST(c, x). It
// returns the amount x. A CASE that picks a branch per row by a key is a
// batch, not a clamp (see analyseDecrement).
func clampedDecrement(c colRef, e sqlparse.ExprNode) (sqlparse.ExprNode, bool) {
	e = unparen(e)
	if amount, ok := decrementOf(c, e); ok {
		return amount, clampedAmount(c, amount)
	}
	var results []sqlparse.ExprNode
	switch x := e.(type) {
	case *sqlparse.FuncCallExpr:
		switch x.FnName.L {
		case "greatest":
			results = x.Args
		case "if":
			if len(x.Args) == 3 {
				results = x.Args[1:]
			}
		}
	case *sqlparse.CaseExpr:
		if batchCase(c, x) {
			return nil, false
		}
		for _, w := range x.WhenClauses {
			results = append(results, w.Result)
		}
		if x.ElseClause != nil {
			results = append(results, x.ElseClause)
		}
	}
	if amount := anyDecrement(c, results...); amount != nil && anyFloor(results...) {
		return amount, true
	}
	return nil, false
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

// anyDecrement returns the amount of the first of es that is a plain
// decrement of c, or nil.
func anyDecrement(c colRef, es ...sqlparse.ExprNode) sqlparse.ExprNode {
	for _, e := range es {
		if e == nil {
			continue
		}
		if amount, ok := decrementOf(c, e); ok {
			return amount
		}
	}
	return nil
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
