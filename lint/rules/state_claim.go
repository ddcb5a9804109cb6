package rules

import (
	"slices"
	"strings"

	"github.com/guard-sql/guard/lint"
)

// claimedBefore reports whether the host function of st claimed the row
// whose state a sets before st runs: an earlier UPDATE of the same function
// and table that sets the same state column, names the state it leaves in
// its WHERE, selects the row by every column st selects it by, and whose
// RowsAffected the function compares. Past such a claim the function holds
// the row in the state it claimed: a concurrent transition that checks the
// state it leaves cannot take the row from there, so writing the state by
// key finishes what the claim began (merging → merged, processing →
// failed), the lease pattern of job and upload handlers.
func claimedBefore(pass *lint.Pass, st *lint.Statement, w *write, a assignment) bool {
	fr := st.Fragment
	if fr == nil || fr.ID == "" {
		return false
	}
	keys := equalityColumns(w, a.col.t)
	if len(keys) == 0 {
		return false
	}
	for _, prev := range pass.Statements {
		pf := prev.Fragment
		if prev == st || pf == nil || pf.File != fr.File || pf.ID != fr.ID || prev.Line >= st.Line {
			continue
		}
		if pf.Exec == nil || !pf.Exec.ResultChecked {
			continue
		}
		pw := writeTargets(prev, pass.Schema)
		if pw == nil || pw.kind != writeUpdate || len(pw.targets) != 1 || pw.targets[0].tableName() != a.col.t.tableName() {
			continue
		}
		if claims(pw, a.col.name, keys) {
			return true
		}
	}
	return false
}

// claims reports whether the UPDATE w sets the state column col from a
// state its WHERE names, selecting its row by every column of keys.
func claims(w *write, col string, keys []string) bool {
	t := w.targets[0]
	sets := false
	for _, as := range w.assignments() {
		if as.col.t == t && strings.EqualFold(as.col.name, col) {
			sets = true
		}
	}
	conds := w.filters()
	if !sets || !mentions(conds, w.refNamed(t, col)) {
		return false
	}
	have := equalityColumns(w, t)
	for _, k := range keys {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, k) }) {
			return false
		}
	}
	return true
}
