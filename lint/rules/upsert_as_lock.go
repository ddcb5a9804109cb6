package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// UpsertAsLock flags counters written by INSERT IGNORE, INSERT … ON DUPLICATE
// KEY UPDATE or REPLACE: statements that decide by key, not by the counter.
var UpsertAsLock = &lint.Rule{
	Code:    "GQ008",
	Name:    "upsert-as-lock",
	Summary: "INSERT IGNORE / ON DUPLICATE KEY UPDATE (or REPLACE) used to modify a counter",
	Doc: "An upsert picks between insert and update by the unique key, never by the counter's value: " +
		"ON DUPLICATE KEY UPDATE has no WHERE, so it cannot refuse a change that would oversell, and its " +
		"affected-rows count (1 inserted, 2 updated, 0 unchanged) does not tell a guarded success from a " +
		"refusal. IGNORE downgrades errors to warnings: the CHECK (qty >= 0) or duplicate key that " +
		"should stop the write only skips the row, and out-of-range values are clamped. REPLACE deletes " +
		"the row and inserts a new one, so the counter is overwritten with the client's stale value and " +
		"concurrent changes are lost.",
	Fix: "create the row with a plain INSERT (catch error 1062 when it already exists), then move the " +
		"counter with one conditional UPDATE checked by RowsAffected == 1: " +
		"`UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?`",
	Kind:         lint.KindQuery,
	Severity:     policy.SevError,
	Races:        true,
	PerStatement: true,
	Run:          runUpsertAsLock,
}

func runUpsertAsLock(pass *lint.Pass) error {
	for _, st := range pass.Statements {
		ins, ok := st.Node.(*sqlparse.InsertStmt)
		if !ok {
			continue
		}
		w := writeTargets(st, pass.Schema)
		if w == nil || len(w.targets) == 0 {
			continue
		}
		t := w.targets[0]
		key := upsertKey(w, t, insertedColumns(w, ins))
		reported := map[string]bool{}
		report := func(c colRef, format string) {
			lower := strings.ToLower(c.name)
			if reported[lower] {
				return
			}
			reported[lower] = true
			pass.ReportStatementFix(st, t.tableName(), c.name, upsertFix(w, t, key, c), format, c.name)
		}
		// The ON DUPLICATE KEY UPDATE list first: it is the write that
		// cannot carry a guard.
		for _, a := range w.assignments() {
			if isCounter(pass, a.col) {
				report(a.col, "INSERT … ON DUPLICATE KEY UPDATE writes counter %s: the update has no WHERE, "+
					"so it cannot refuse a change that oversells, and its affected-rows count does not say "+
					"whether the counter moved; use a plain INSERT and a conditional UPDATE")
			}
		}
		if !w.replace && !w.ignore {
			continue
		}
		for _, c := range insertedColumns(w, ins) {
			if !isCounter(pass, c) {
				continue
			}
			if w.replace {
				report(c, "REPLACE writes counter %s: it deletes the row and inserts a new one, overwriting "+
					"concurrent changes with the client's value (lost update); use a plain INSERT and a "+
					"conditional UPDATE")
			} else {
				report(c, "INSERT IGNORE writes counter %s: IGNORE turns the errors that guard it into "+
					"warnings (a CHECK violation or duplicate key skips the row, an out-of-range value is "+
					"clamped), so a refused write looks like success; drop IGNORE and handle error 1062")
			}
		}
	}
	return nil
}

// insertedColumns returns the columns an INSERT or REPLACE gives values to:
// its column list (or SET list), else every column of the table when the
// schema knows it.
func insertedColumns(w *write, ins *sqlparse.InsertStmt) []colRef {
	var out []colRef
	if len(ins.Columns) > 0 {
		for _, c := range ins.Columns {
			if c != nil {
				out = append(out, w.ref(c))
			}
		}
		return out
	}
	t := w.targets[0]
	if t.table == nil {
		return nil
	}
	for _, c := range t.table.Columns {
		out = append(out, w.refNamed(t, c.Name))
	}
	return out
}

// upsertFix is the advice for an upsert, INSERT IGNORE or REPLACE that
// writes counter c of t: a plain INSERT of the row, then one conditional
// UPDATE of the counter on the key the statement collides with.
func upsertFix(w *write, t *target, key string, c colRef) string {
	table := t.tableName()
	if table == "" {
		return ""
	}
	insert := "create the row with a plain INSERT INTO " + schema.QuoteIdent(table) + " (catch error 1062 when it already exists)"
	switch {
	case w.replace:
		insert = "replace REPLACE with a plain INSERT INTO " + schema.QuoteIdent(table) + " (catch error 1062 when the row exists)"
	case w.ignore && !w.upsert:
		insert = "drop IGNORE from the INSERT INTO " + schema.QuoteIdent(table) + " and handle error 1062 when the row exists"
	}
	col := schema.QuoteIdent(c.name)
	return insert + ", then move " + col + " with one conditional UPDATE checked by RowsAffected == 1: `" +
		guardedDecrementSQL(table, key, col, "?") + "` (`" + col + " = " + col + " + ?` to add)"
}
