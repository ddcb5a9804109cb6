package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// UncheckedStateTransition flags state changes that do not say which state
// they start from.
var UncheckedStateTransition = &lint.Rule{
	Code:    "GQ005",
	Name:    "unchecked-state-transition",
	Summary: "state column set without a state or version predicate in WHERE",
	Doc: "A state machine is only a state machine if each transition checks the state it leaves. " +
		"`UPDATE t_order SET status = 'paid' WHERE id = ?` also succeeds on an order a concurrent " +
		"request just cancelled or refunded, so a lost or expired lock turns into a cancelled order " +
		"marked paid. With the expected state in WHERE the database refuses the stale transition " +
		"atomically and RowsAffected == 0 tells the caller.",
	Fix: "name the state the transition starts from and check RowsAffected: " +
		"`UPDATE t_order SET status = 'paid' WHERE id = ? AND status = 'pending'` " +
		"(or a version CAS: `… WHERE id = ? AND version = ?`)",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Races:    true,
	Run:      runUncheckedStateTransition,
}

func runUncheckedStateTransition(pass *lint.Pass) error {
	mapperStateWrites(pass)
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || w.kind != writeUpdate || whereFromCaller(st) || mbgWrite(st) {
			continue
		}
		conds := w.filters()
		for _, a := range w.assignments() {
			if !isState(pass, a.col) || mentions(conds, a.col) {
				continue
			}
			if hasVersionPredicate(conds, w.versionRef(pass, a.col.t)) || w.comparesAndSets(pass, conds, a.col.t) {
				continue
			}
			if claimedBefore(pass, st, w, a) || batchEdit(pass, w, a, conds) {
				continue
			}
			table, col := a.col.t.tableName(), a.col.name
			pass.ReportStatementFix(st, table, col, transitionFix(pass, w, a),
				"state column %s is set to %s without a predicate on %s or %s in WHERE: the transition "+
					"also succeeds from a state a concurrent writer just set",
				qualified(table, col), exprText(a.expr), col, pass.Policy.VersionColumn())
		}
	}
	return nil
}

// mbgWrite reports whether st is a selective write MyBatis Generator wrote
// into a mapper (updateByPrimaryKeySelective sets what the record
// carries): a generic edit, judged at each call that passes it a state
// (mapperStateWrites), not where it stands. Its full-row twin writes the
// state on every call, and is judged where it stands.
func mbgWrite(st *lint.Statement) bool {
	fr := st.Fragment
	return fr != nil && fr.Lang == stmt.LangXML && fr.Generated == "@mbg.generated" && strings.HasSuffix(fr.ID, "Selective")
}

// transitionFix is the advice for a state change of a.col that does not say
// which state it leaves: the same UPDATE with the state it starts from, or a
// version CAS when the table has a version column.
func transitionFix(pass *lint.Pass, w *write, a assignment) string {
	t := a.col.t
	table := t.tableName()
	if table == "" {
		return ""
	}
	col, key := schema.QuoteIdent(a.col.name), rowKey(w, t, a.col.name, pass.Policy.VersionColumn())
	fix := "name the state the transition leaves and check RowsAffected == 1: `UPDATE " + schema.QuoteIdent(table) + " SET " + col +
		" = " + fixExpr(a.expr) + " WHERE " + key + " AND " + col + " = ?`"
	if vc := pass.Policy.VersionColumn(); !lacksVersion(t, vc) {
		v := versionName(w, t, vc)
		fix += ", or a version CAS: `… SET " + col + " = " + fixExpr(a.expr) + ", " + v + " = " + v + " + 1 WHERE " +
			key + " AND " + v + " = ?`"
	}
	return fix
}

// batchEdit reports whether the write sets a state to what its caller
// passes on a list of rows named by key alone (`SET status = ? WHERE id IN
// (…)`: enable or disable the selected rows of an admin list), on a column
// the code shows nothing more of than its name: a switch the caller
// chooses, not a transition from a state the code checked. A column the
// code compares or steps through named states is judged as before.
func batchEdit(pass *lint.Pass, w *write, a assignment, conds []sqlparse.ExprNode) bool {
	if !isParam(a.expr) || len(conds) != 1 {
		return false
	}
	in, ok := unparen(conds[0]).(*sqlparse.PatternInExpr)
	if !ok || in.Not || in.Sel != nil || len(in.List) == 0 {
		return false
	}
	key, ok := columnOf(in.Expr)
	if !ok {
		return false
	}
	for _, item := range in.List {
		if !isParam(item) {
			return false
		}
	}
	table := a.col.t.tableName()
	if !identifying(pass.Schema, table, key.Name.O, pass.Policy) {
		return false
	}
	return !pass.Policy.StateByCode(table, a.col.name)
}
