package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// VersionNotBumped flags writes to a versioned table that leave the version
// unchanged.
var VersionNotBumped = &lint.Rule{
	Code:    "GQ004",
	Name:    "version-not-bumped",
	Summary: "UPDATE on a versioned table that does not set `version = version + 1`",
	Doc: "A version column only protects a row when every write moves it forward. A CAS writer that " +
		"read version 7 succeeds with `WHERE version = 7` as long as the version is still 7, so a write " +
		"that changed the row but not the version is silently overwritten (lost update). Setting the " +
		"version to an absolute value is no better: it may go back to a value a stale reader holds.",
	Fix: "add the bump to every write of the table: `UPDATE t_inventory SET inventory = inventory - ?, " +
		"version = version + 1 WHERE id = ? AND inventory >= ?`",
	Kind:         lint.KindQuery,
	Severity:     policy.SevError,
	Races:        true,
	PerStatement: true,
	Run:          runVersionNotBumped,
}

func runVersionNotBumped(pass *lint.Pass) error {
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || (w.kind != writeUpdate && !w.upsert) {
			continue
		}
		as := w.assignments()
		for _, t := range writtenTargets(w, as) {
			if !versioned(pass, t) {
				continue
			}
			v := w.versionRef(pass, t)
			if bumpsVersion(as, v) || hostBumpsVersion(st, w, as, v) {
				continue
			}
			what := "does not set " + v.name + " = " + v.name + " + 1"
			absolute := false
			for _, a := range as {
				if a.col.t == t && strings.EqualFold(a.col.name, v.name) {
					what = "sets " + v.name + " to " + exprText(a.expr) + ", which is not a bump of " + v.name + " + 1"
					absolute = true
				}
			}
			verb := "UPDATE"
			if w.kind == writeInsert {
				verb = "ON DUPLICATE KEY UPDATE"
			}
			pass.ReportStatementFix(st, t.tableName(), v.name, bumpFix(w, t, v, as, absolute),
				"%s of versioned table %s %s: a compare-and-set writer that read the old version overwrites this change",
				verb, t.tableName(), what)
		}
	}
	return nil
}

// writtenTargets returns the targets a write changes: the only one of a
// single-table statement, else those an assignment resolves to.
func writtenTargets(w *write, as []assignment) []*target {
	if len(w.targets) == 1 {
		return w.targets
	}
	var out []*target
	seen := map[*target]bool{}
	for _, a := range as {
		if a.col.t != nil && !seen[a.col.t] {
			seen[a.col.t] = true
			out = append(out, a.col.t)
		}
	}
	return out
}

// bumpFix is the advice for a write of versioned table t that leaves version
// v behind: the bump in the statement's own SET list.
func bumpFix(w *write, t *target, v colRef, as []assignment, absolute bool) string {
	table := t.tableName()
	if table == "" {
		return ""
	}
	vn := schema.QuoteIdent(v.name)
	bump := vn + " = " + vn + " + 1"
	if absolute {
		return "set `" + bump + "` instead of the value it assigns " + vn + "; a write computed from an earlier read " +
			"compares the version it read in WHERE (`AND " + vn + " = ?`)"
	}
	first := "…"
	for _, a := range as {
		if a.col.t == t {
			first = schema.QuoteIdent(a.col.name) + " = …"
			break
		}
	}
	if w.kind == writeInsert {
		return "add `" + bump + "` to the ON DUPLICATE KEY UPDATE list: `INSERT INTO " + schema.QuoteIdent(table) +
			" … ON DUPLICATE KEY UPDATE " + first + ", " + bump + "`"
	}
	return "add `" + bump + "` to the SET list, here and in every other write of " + schema.QuoteIdent(table) + ": `UPDATE " + schema.QuoteIdent(table) +
		" SET " + first + ", " + bump + " WHERE …`"
}

// hostBumpsVersion reports whether the statement sets version v to a
// placeholder that the host code binds to the version compared in WHERE plus
// one (`SET version = ? … WHERE version = ?` with the new version computed
// from the one read): a compare-and-set whose bump is done in code. The text
// alone never shows it; the fragment's ParamSteps do.
func hostBumpsVersion(st *lint.Statement, w *write, as []assignment, v colRef) bool {
	if st.Fragment == nil || len(st.Fragment.ParamSteps) == 0 || st.Node == nil {
		return false
	}
	var set sqlparse.ExprNode
	for _, a := range as {
		if a.col.t == v.t && strings.EqualFold(a.col.name, v.name) {
			if set != nil || !isParam(a.expr) {
				return false
			}
			set = unparen(a.expr)
		}
	}
	if set == nil {
		return false
	}
	ord := sqlparse.ParamOrdinals(st.Node)
	to, ok := ord[set.(sqlparse.ParamMarkerExpr)]
	if !ok {
		return false
	}
	for _, c := range conjuncts(w.where) {
		b, ok := unparen(c).(*sqlparse.BinaryOperationExpr)
		if !ok || b.Op != sqlparse.OpEQ {
			continue
		}
		var p sqlparse.ExprNode
		switch {
		case v.matches(b.L) && isParam(b.R):
			p = unparen(b.R)
		case v.matches(b.R) && isParam(b.L):
			p = unparen(b.L)
		default:
			continue
		}
		from, ok := ord[p.(sqlparse.ParamMarkerExpr)]
		if !ok {
			continue
		}
		for _, s := range st.Fragment.ParamSteps {
			if s.Param == to && s.From == from {
				return true
			}
		}
	}
	return false
}
