package rules

import (
	"fmt"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// AbsoluteCounterWrite flags counters overwritten with a value computed
// elsewhere, without a version compare-and-set.
var AbsoluteCounterWrite = &lint.Rule{
	Code:    "GQ003",
	Name:    "absolute-counter-write",
	Summary: "counter set to a value not relative to itself, without `version = ?` in WHERE",
	Doc: "`SET c = ?` writes a value the application computed from an earlier read. Any change " +
		"committed between that read and this write is lost: two workers read 10, each sells one and " +
		"both write 9. A Redis lock around read-compute-write only narrows the window (it can expire " +
		"or vanish in a failover). Either let the database compute the new value (`c = c - ?` with a " +
		"guard) or make the write a compare-and-set on the version read with the value.",
	Fix: "write relative to the current value: `UPDATE t_inventory SET inventory = inventory - ? WHERE " +
		"id = ? AND inventory >= ?`, or use a version CAS: `UPDATE t_inventory SET inventory = ?, " +
		"version = version + 1 WHERE id = ? AND version = ?` and retry when RowsAffected == 0",
	Kind:         lint.KindQuery,
	Severity:     policy.SevError,
	Races:        true,
	PerStatement: true,
	Run:          runAbsoluteCounterWrite,
}

func runAbsoluteCounterWrite(pass *lint.Pass) error {
	mapperCounterWrites(pass)
	rpcCounterWrites(pass)
	vc := pass.Policy.VersionColumn()
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || w.kind != writeUpdate {
			continue
		}
		fromCaller := whereFromCaller(st)
		conds := w.filters()
		for _, a := range w.assignments() {
			if !isCounter(pass, a.col) || relativeTo(a.col, a.expr) {
				continue
			}
			// A WHERE the caller builds may hold the version compare, unless
			// the table has no version column to compare: then no caller
			// makes this write safe.
			if fromCaller && !lacksVersion(a.col.t, vc) {
				continue
			}
			if !fromCaller && (hasVersionPredicate(conds, w.versionRef(pass, a.col.t)) || w.comparesAndSets(pass, conds, a.col.t)) {
				continue
			}
			table, col := a.col.t.tableName(), a.col.name
			why := ""
			if fromCaller {
				why = fmt.Sprintf("; the caller's Example supplies the WHERE, but %s has no %s column for it to compare", schema.QuoteIdent(table), schema.QuoteIdent(vc))
			}
			why += boundFromRead(st, a.expr)
			pass.ReportStatementFix(st, table, col, absoluteWriteFix(pass, w, a),
				"counter %s is set to an absolute value (%s) without `%s = ?` in WHERE: a value computed "+
					"from an earlier read overwrites concurrent changes (lost update)%s",
				qualified(table, col), exprText(a.expr), vc, why)
		}
	}
	return nil
}

// absoluteWriteFix is the advice for an absolute write of counter a.col: a
// relative write guarded in WHERE, or a version CAS on the table's version
// column (added first when the schema shows the table has none).
func absoluteWriteFix(pass *lint.Pass, w *write, a assignment) string {
	t := a.col.t
	table := t.tableName()
	if table == "" {
		return ""
	}
	col, key := schema.QuoteIdent(a.col.name), rowKey(w, t, a.col.name, pass.Policy.VersionColumn())
	vc := pass.Policy.VersionColumn()
	v := versionName(w, t, vc)
	cas := "or compare-and-set the version read with the value: `" + casSQL(table, key, col, v) + "` and retry when RowsAffected == 0"
	if lacksVersion(t, vc) {
		cas = "or add a " + v + " column to " + schema.QuoteIdent(table) + " (GS006) and compare-and-set it: `" + casSQL(table, key, col, v) +
			"`, retrying when RowsAffected == 0"
	}
	return "write relative to the current value and let the WHERE refuse an oversell: `" +
		guardedDecrementSQL(table, key, col, "?") + "` (`" + col + " = " + col + " + ?` to add), " + cas
}
