package rules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// RowsAffectedIgnored flags Go code that runs a conditional write and never
// looks at how many rows it changed: the one place the guard's answer is.
var RowsAffectedIgnored = &lint.Rule{
	Code:    "GQ011",
	Name:    "rows-affected-ignored",
	Summary: "Go: a conditional/CAS UPDATE whose result's RowsAffected is never compared",
	Doc: "A guarded write refuses by matching no row, not by failing: `UPDATE … WHERE id = ? AND " +
		"inventory >= ?` with too little stock, a version CAS that lost the race, a transition from a " +
		"state the row already left all return err == nil with zero rows affected. Code that checks only " +
		"err treats every refusal as success, which is the oversell or lost update the guard was meant to " +
		"stop. Success is RowsAffected() == 1 (go-sql-driver/mysql counts changed rows unless " +
		"clientFoundRows=true), and anything else must be handled.",
	Fix: "keep the result and compare it: `res, err := db.ExecContext(ctx, \"UPDATE t_inventory SET " +
		"inventory = inventory - ? WHERE id = ? AND inventory >= ?\", n, id, n)`; then `n, err := " +
		"res.RowsAffected()` and `if n != 1 { return ErrInsufficient }` (re-read the row to tell not found, " +
		"insufficient and conflict apart)",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Run:      runRowsAffectedIgnored,
}

func runRowsAffectedIgnored(pass *lint.Pass) error {
	for _, st := range pass.Statements {
		fr := st.Fragment
		if fr == nil || fr.Exec == nil || fr.Exec.ResultChecked {
			continue
		}
		w := writeTargets(st, pass.Schema)
		if w == nil {
			continue
		}
		why, table, column := conditionalWrite(pass, w)
		if why == "" {
			continue
		}
		outcome := "its RowsAffected() is never compared"
		if fr.Exec.ResultDiscarded {
			outcome = "the result is discarded"
		}
		pass.ReportStatement(st, table, column,
			"%s runs %s but %s: a write that matched no row returns err == nil, so the result's "+
				"RowsAffected() must be compared (== 1 is success, anything else is a refusal)",
			execName(fr.Exec.Method), why, outcome)
	}
	return nil
}

// conditionalWrite says why w is a write whose success only RowsAffected
// tells: it names the guard ("a version CAS", …) and the table and column it
// bears on; why is "" for a plain write.
func conditionalWrite(pass *lint.Pass, w *write) (why, table, column string) {
	if w.kind != writeUpdate && w.kind != writeDelete {
		return "", "", ""
	}
	conds := w.filters()
	as := w.assignments()
	// Any write of a counter: guarded or not, only the count of changed rows
	// says whether the stock moved.
	for _, a := range as {
		if !isCounter(pass, a.col) {
			continue
		}
		for _, d := range w.decrements() {
			if d.node == a.node && d.fullyGuarded() {
				return "a guarded decrement of " + a.col.name, a.col.t.tableName(), a.col.name
			}
		}
		return "a write of counter " + a.col.name, a.col.t.tableName(), a.col.name
	}
	for _, t := range w.targets {
		if v := w.versionRef(pass, t); hasVersionPredicate(conds, v) {
			return "a version CAS on " + v.name, t.tableName(), v.name
		}
	}
	// A state predicate bounds a transition; for a DELETE it bounds which
	// state a row may be removed from.
	if w.kind == writeDelete {
		for _, c := range referencedColumns(w, conds) {
			if isState(pass, c) {
				return "a DELETE conditional on " + c.name, c.t.tableName(), c.name
			}
		}
		return "", "", ""
	}
	for _, a := range as {
		if isState(pass, a.col) && mentions(conds, a.col) {
			return "a state transition of " + a.col.name, a.col.t.tableName(), a.col.name
		}
	}
	return "", "", ""
}
