package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// observeWrites emits what a write the code wrote shows of the rows it
// changes, for inferVersioned: the columns an INSERT names (ObsInsert) and
// an UPDATE or upsert sets (ObsChange), and each column set to a value not
// computed from itself where the WHERE (compared) does not compare that
// column with a value (ObsRewrite; a REPLACE rewrites every column it
// lists). `stock = stock - ?` and `status = 2 … AND status = 1` need no
// version column to be safe; `stock = ?` and a bare `status = 2` may.
// Statements a generator wrote for every table are not the code's own.
func observeWrites(st *lint.Statement, w *write, as []assignment, compared []comparison, add func(lint.ObservationKind, colRef, string)) {
	if st.Fragment != nil && st.Fragment.Generated != "" {
		return
	}
	if ins, ok := st.Node.(*sqlparse.InsertStmt); ok && w.kind == writeInsert && len(w.targets) == 1 {
		kind, value := lint.ObsInsert, ""
		if w.replace {
			// REPLACE deletes the row of the same key and inserts the
			// values given: each column listed is overwritten.
			kind, value = lint.ObsRewrite, "?"
		}
		for _, c := range ins.Columns {
			add(kind, w.refNamed(w.targets[0], c.Name.O), value)
		}
	}
	for _, a := range as {
		add(lint.ObsChange, a.col, "")
		if relativeTo(a.col, a.expr) || slices.ContainsFunc(compared, func(cv comparison) bool {
			return cv.col.t == a.col.t && strings.EqualFold(cv.col.name, a.col.name)
		}) {
			continue
		}
		v := valueText(a.expr)
		if v == "" {
			v = "?"
		}
		add(lint.ObsRewrite, a.col, v)
	}
}

// inferVersioned records, per table, the first write that needs its
// version column (policy.Inferred.Versioned): a counter or state rewritten
// with a value the code computed — read, decide, write back — or set to a
// constant where other statements write the column too. A table whose
// counters and states are only written relative to themselves, only
// compared and set, only inserted, or not at all, needs none.
func inferVersioned(inf *policy.Inferred, obs []lint.Observation, s *schema.Schema, pol *policy.Policy) {
	inf.Versioned = map[string]*policy.Evidence{}
	inf.Writes = len(obs) > 0
	with := pol.WithInferred(inf)
	inf.Updated, inf.Inserted = map[string]bool{}, map[string]bool{}
	writes := map[string]int{} // statements writing each column
	for _, o := range obs {
		switch o.Kind {
		case lint.ObsRewrite, lint.ObsDecrement, lint.ObsCondition:
			writes[policy.Key(o.Table, o.Column)] += max(o.Count, 1)
			inf.Updated[policy.Key(o.Table, o.Column)] = true
		case lint.ObsChange:
			inf.Updated[policy.Key(o.Table, o.Column)] = true
		case lint.ObsInsert:
			inf.Inserted[policy.Key(o.Table, o.Column)] = true
		}
	}
	for _, o := range obs {
		table := o.Table
		if t := s.Table(table); t != nil {
			table = t.Name
		}
		k := strings.ToLower(table)
		if o.Kind != lint.ObsRewrite || inf.Versioned[k] != nil {
			continue
		}
		counter := with.IsCounter(table, o.Column)
		if !counter && !with.IsState(table, o.Column) {
			continue
		}
		why := ""
		switch n := writes[policy.Key(o.Table, o.Column)]; {
		case counter && o.Value == "?":
			why = "sets " + o.Column + " to a value the code computed, not relative to itself"
		case n > 1:
			// A state set from a request, or a constant, where no other
			// statement writes the column is an edit or a bare transition
			// (GQ005 at the statement): a version helps once writers race.
			why = "sets " + o.Column + " to " + valueWords(o.Value) + " without comparing its old value, while " + writesMore(n-1) + " it too"
		default:
			continue
		}
		inf.Versioned[k] = &policy.Evidence{Table: table, Column: o.Column, Why: why, File: o.File, Line: o.Line, Count: o.Count}
	}
}

// valueWords names a rewrite's value: the literal, or "a value of the
// code's" for a parameter.
func valueWords(v string) string {
	if v == "?" {
		return "a value the code passes"
	}
	return v
}

// writesMore says how many other writes change a column: "1 other write
// changes", "3 other writes change".
func writesMore(n int) string {
	if n == 1 {
		return "1 other write changes"
	}
	return strconv.Itoa(n) + " other writes change"
}
