package rules

import (
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

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
