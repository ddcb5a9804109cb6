package rules

import (
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
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

// equalityColumns lists the columns of t that the WHERE of w compares with
// = as one of its conjuncts.
func equalityColumns(w *write, t *target) []string {
	var cols []string
	for _, e := range w.filters() {
		b, ok := unparen(e).(*sqlparse.BinaryOperationExpr)
		if !ok || b.Op != sqlparse.OpEQ {
			continue
		}
		for _, side := range []sqlparse.ExprNode{b.L, b.R} {
			if c, ok := columnOf(side); ok && w.resolve(c) == t {
				cols = append(cols, c.Name.L)
			}
		}
	}
	return cols
}

// pinsRow reports whether the WHERE of w selects at most one row of t: it
// compares with = every column of t's primary key or of one of its UNIQUE
// keys, or, when the schema does not know t, a column named id, the table's
// own id (order_id of t_order) or one the policy takes for a business key
// (order_no, out_trade_no). A bulk
// write (`… WHERE user_id = ? AND status = 'unread'`, mark all read) changes
// as many rows as there are, none included, so its count is no refusal.
func pinsRow(pass *lint.Pass, w *write, t *target) bool {
	cols := equalityColumns(w, t)
	if t.table == nil {
		own := ownIDName(t.tableName())
		return slices.ContainsFunc(cols, func(c string) bool {
			return strings.EqualFold(c, "id") || strings.EqualFold(c, own) || pass.Policy.IsBusinessKey(t.tableName(), c)
		})
	}
	for _, ix := range t.table.Indexes {
		if !ix.Unique && !ix.Primary {
			continue
		}
		all := true
		for _, k := range ix.Columns {
			if !slices.ContainsFunc(cols, func(c string) bool { return strings.EqualFold(c, k) }) {
				all = false
				break
			}
		}
		if all && len(ix.Columns) > 0 {
			return true
		}
	}
	return false
}

// ownIDName is the name a table's key often has: order_id for t_order,
// tb_order or orders.
func ownIDName(table string) string {
	n := strings.ToLower(table)
	for _, p := range []string{"tbl_", "tb_", "t_"} {
		if rest, ok := strings.CutPrefix(n, p); ok {
			n = rest
			break
		}
	}
	if strings.HasSuffix(n, "s") && len(n) > 1 {
		n = n[:len(n)-1]
	}
	return n + "_id"
}
