package rules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// UnguardedDecrement flags counter decrements whose WHERE does not refuse
// to go below zero.
var UnguardedDecrement = &lint.Rule{
	Code:    "GQ002",
	Name:    "unguarded-decrement",
	Summary: "`c = c - x` on a counter without a WHERE conjunct implying `c >= x` (incl. upserts)",
	Doc: "`SET c = c - x` is atomic, but without a condition it succeeds whatever c holds: two buyers " +
		"who each checked the stock (or held a Redis lock that expired, or was lost in a failover) both " +
		"subtract and the counter goes negative, or fails with error 1690 on an UNSIGNED column. A " +
		"conjunct such as `c >= x` in the same statement makes the database refuse the oversell " +
		"atomically, and RowsAffected == 0 tells the caller. `c > 0` only protects a decrement of 1; an " +
		"upsert (ON DUPLICATE KEY UPDATE) has no WHERE at all and cannot carry the guard. A batched update, " +
		"`SET c = CASE k WHEN ? THEN c - ? … END WHERE k IN (…)`, decrements every row it names and needs the " +
		"guard per row: `AND c >= CASE k WHEN ? THEN ? … END`.",
	Fix: "put the guard in the statement and check the result: " +
		"`UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?` and treat " +
		"RowsAffected == 0 as insufficient; for an upsert, insert the row first and decrement with a " +
		"guarded UPDATE",
	Kind:         lint.KindQuery,
	Severity:     policy.SevError,
	Races:        true,
	PerStatement: true,
	Run:          runUnguardedDecrement,
}

func runUnguardedDecrement(pass *lint.Pass) error {
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || (w.kind != writeUpdate && !w.upsert) || (w.kind == writeUpdate && whereFromCaller(st)) {
			continue
		}
		conds := w.filters()
		for _, d := range w.decrements() {
			if !isCounter(pass, d.col) {
				continue
			}
			open := d.unguarded()
			if len(open) == 0 {
				continue
			}
			arm := open[0]
			table, col, amount := d.col.t.tableName(), d.col.name, exprText(arm.amount)
			what := "decrement of counter " + qualified(table, col) + " by " + amount
			implied := col + " >= " + amount
			if d.batch != nil {
				what += " in a batched CASE (one branch per row)"
				implied += " for the row each branch writes"
			}
			if d.signedBy != "" {
				what += " (`" + col + " + " + amount + "`, where " + d.signedBy + ")"
				implied = col + " + " + amount + " >= 0"
			}
			var msg string
			switch {
			case w.kind == writeInsert:
				msg = "ON DUPLICATE KEY UPDATE decrements counter " + qualified(table, col) +
					": an upsert has no WHERE, so nothing stops it going below zero"
			case mentions(conds, d.col):
				msg = what + ": the WHERE condition on " + col + " does not imply " + implied
				if checksPositive(conds, d.col) {
					msg += " (`" + col + " > 0` guards a decrement of 1 only)"
				}
			default:
				msg = what + " has no WHERE conjunct implying " + implied
			}
			if unsignedColumn(d.col) {
				msg += ": concurrent writers overdraw it, and as the column is UNSIGNED the write then fails " +
					"with error 1690 instead of a clean RowsAffected == 0"
			} else if w.kind != writeInsert {
				msg += ": concurrent writers drive it below zero"
			}
			pass.ReportStatementFix(st, table, col, decrementFix(st, w, &d, arm, false), "%s", msg)
		}
	}
	return nil
}

// qualified prints table.col, or col when the table is unknown.
func qualified(table, col string) string {
	if table == "" {
		return col
	}
	return table + "." + col
}

// unsignedColumn reports whether the schema declares c UNSIGNED.
func unsignedColumn(c colRef) bool {
	if c.t == nil || c.t.table == nil {
		return false
	}
	col := c.t.table.Column(c.name)
	return col != nil && col.Unsigned
}

// checksPositive reports whether a conjunct of conds is `c > 0` or `0 < c`,
// the guard that only protects a decrement of 1.
func checksPositive(conds []sqlparse.ExprNode, c colRef) bool {
	for _, e := range conds {
		b, ok := e.(*sqlparse.BinaryOperationExpr)
		if !ok {
			continue
		}
		l, r := b.L, b.R
		switch b.Op {
		case sqlparse.OpLT:
			l, r = r, l
		case sqlparse.OpGT:
		default:
			continue
		}
		if n, lit := numberOf(r); lit && n == 0 && c.matches(l) {
			return true
		}
	}
	return false
}
