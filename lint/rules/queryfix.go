package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// The fixes of the query rules are built from the finding's statement: its
// table, the column the rule is about, its kind (UPDATE, DELETE, upsert) and
// the amount it subtracts, so that the advice can be copied. A rule falls
// back to its general Fix only when it cannot name the table.

// writtenColumn prints a column the way the statement wrote it, qualifier
// included: inventory, s.inventory.
func writtenColumn(cn *sqlparse.ColumnName) string {
	if cn == nil {
		return ""
	}
	if cn.Table.O != "" {
		return schema.QuoteIdent(cn.Table.O) + "." + schema.QuoteIdent(cn.Name.O)
	}
	return schema.QuoteIdent(cn.Name.O)
}

// fixExpr prints e for a fix in the user's spelling where that is plain: a
// column as written (s.inventory), a placeholder; anything else in
// canonical form. An absent amount prints as a placeholder.
func fixExpr(e sqlparse.ExprNode) string {
	if e == nil || isParam(e) {
		return "?"
	}
	if cn, ok := columnOf(e); ok {
		return writtenColumn(cn)
	}
	return exprText(e)
}

// simpleAmount reports whether a template statement can repeat the amount:
// a placeholder or a literal, not a column of another table.
func simpleAmount(e sqlparse.ExprNode) bool {
	if e == nil || isParam(e) {
		return true
	}
	_, ok := numberOf(e)
	return ok
}

// rowKey is the predicate a template statement names its row by: the
// equality conjuncts of the statement's own filters on t's columns (the
// columns in skip left out), else the primary key of t when the schema
// knows it, else a placeholder the user fills in.
func rowKey(w *write, t *target, skip ...string) string {
	var parts []string
	if w != nil {
		for _, e := range w.filters() {
			b, ok := e.(*sqlparse.BinaryOperationExpr)
			if !ok || b.Op != sqlparse.OpEQ {
				continue
			}
			col, other := b.L, b.R
			if _, isCol := columnOf(col); !isCol {
				col, other = other, col
			}
			cn, isCol := columnOf(col)
			if !isCol || w.resolve(cn) != t || skipped(cn.Name.O, skip) {
				continue
			}
			if _, otherCol := columnOf(other); otherCol {
				continue // a join condition, not the row's key
			}
			parts = append(parts, schema.QuoteIdent(cn.Name.O)+" = "+fixExpr(other))
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " AND ")
	}
	if pk := keyColumns(t); len(pk) > 0 {
		return keyPredicate(pk)
	}
	return "<key> = ?"
}

// skipped reports whether name is one of names, in any case.
func skipped(name string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// keyColumns returns the primary key of t when the schema knows one.
func keyColumns(t *target) []string {
	if t == nil || t.table == nil {
		return nil
	}
	if len(t.table.PrimaryKey) > 0 {
		return t.table.PrimaryKey
	}
	for _, ix := range t.table.Indexes {
		if ix.Primary {
			return ix.Columns
		}
	}
	return nil
}

// keyPredicate prints `a = ? AND b = ?` for the columns of a key.
func keyPredicate(cols []string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = schema.QuoteIdent(c) + " = ?"
	}
	return strings.Join(parts, " AND ")
}

// upsertKey is the predicate that names the row an upsert collides with: a
// unique key (the primary key included) whose columns the INSERT gives, else
// rowKey.
func upsertKey(w *write, t *target, inserted []colRef) string {
	if t != nil && t.table != nil {
		given := map[string]bool{}
		for _, c := range inserted {
			if c.t == t {
				given[strings.ToLower(c.name)] = true
			}
		}
		for _, ix := range t.table.Indexes {
			if !ix.Unique && !ix.Primary {
				continue
			}
			all := len(ix.Columns) > 0
			for _, c := range ix.Columns {
				all = all && given[strings.ToLower(c)]
			}
			if all {
				return keyPredicate(ix.Columns)
			}
		}
	}
	return rowKey(w, t)
}

// fixKey is the row predicate of a template for a statement st: the key an
// INSERT collides with, else rowKey.
func fixKey(st *lint.Statement, w *write, t *target, skip ...string) string {
	if ins, ok := st.Node.(*sqlparse.InsertStmt); ok && len(w.targets) > 0 {
		return upsertKey(w, t, insertedColumns(w, ins))
	}
	return rowKey(w, t, skip...)
}

// guardedDecrementSQL is the single-row decrement with its guard:
// `UPDATE t SET c = c - ? WHERE id = ? AND c >= ?`.
func guardedDecrementSQL(table, key, col, amount string) string {
	return "UPDATE " + schema.QuoteIdent(table) + " SET " + col + " = " + col + " - " + amount +
		" WHERE " + key + " AND " + col + " >= " + amount
}

// casSQL is the compare-and-set write of col: `UPDATE t SET c = ?, version
// = version + 1 WHERE id = ? AND version = ?`.
func casSQL(table, key, col, version string) string {
	return "UPDATE " + schema.QuoteIdent(table) + " SET " + col + " = ?, " + version + " = " + version + " + 1 WHERE " +
		key + " AND " + version + " = ?"
}

// batchGuardSQL is the batched decrement of col guarded per row: the WHERE
// repeats the CASE with the amount of each branch.
func batchGuardSQL(table string, c colRef, cs *sqlparse.CaseExpr, col, amount string) string {
	sel, when, key := "CASE", "?", "<key>"
	if cs.Value != nil {
		key = fixExpr(cs.Value)
		sel += " " + key
	} else if k, w := searchedKey(c, cs); k != "" {
		key, when = k, w
	}
	return "UPDATE " + schema.QuoteIdent(table) + " SET " + col + " = " + sel + " WHEN " + when + " THEN " + col + " - " + amount +
		" … END WHERE " + key + " IN (…) AND " + col + " >= " + sel + " WHEN " + when + " THEN " + amount + " … END"
}

// searchedKey returns the key column a searched batch CASE selects its rows
// by (`CASE WHEN k = ? …`) and the selecting condition of its first branch;
// "" when the first branch does not select by `k = x`.
func searchedKey(c colRef, cs *sqlparse.CaseExpr) (key, when string) {
	if len(cs.WhenClauses) == 0 {
		return "", ""
	}
	for _, e := range conjuncts(cs.WhenClauses[0].Expr) {
		b, ok := e.(*sqlparse.BinaryOperationExpr)
		if !ok || b.Op != sqlparse.OpEQ || relativeTo(c, e) {
			continue
		}
		if cn, ok := columnOf(b.L); ok {
			return writtenColumn(cn), writtenColumn(cn) + " = " + fixExpr(b.R)
		}
	}
	return "", ""
}

// versionName is the version column of t as the schema spells it, else the
// policy's name.
func versionName(w *write, t *target, policyName string) string {
	if t != nil && t.table != nil {
		if c := t.table.Column(policyName); c != nil {
			return schema.QuoteIdent(c.Name)
		}
	}
	return schema.QuoteIdent(policyName)
}

// lacksVersion reports whether the schema knows t and t has no version
// column: a CAS fix must add it first.
func lacksVersion(t *target, policyName string) bool {
	return t != nil && t.table != nil && t.table.Column(policyName) == nil
}

// decrementFix is the advice for a decrement that may overdraw its column
// (GQ002) or clamps (GQ006): the guarded form of the same write. It returns
// "" when the table is unknown.
func decrementFix(st *lint.Statement, w *write, d *decrement, arm decrementArm, ruleClamps bool) string {
	t := d.col.t
	table := t.tableName()
	if table == "" {
		return ""
	}
	col := writtenColumn(d.node.Column)
	amountText := fixExpr(arm.amount) // printed once: the advice names it up to three times
	amount := amountText
	if !simpleAmount(arm.amount) {
		amount = "?"
	}
	key := fixKey(st, w, t, d.col.name)
	plainCol := schema.QuoteIdent(d.col.name)
	switch {
	case w.kind == writeInsert:
		return "insert the row with a plain INSERT (catch error 1062 when it exists), then decrement it with a " +
			"guarded UPDATE and treat RowsAffected == 0 as insufficient: `" +
			guardedDecrementSQL(table, key, plainCol, amount) + "`"
	case d.batch != nil:
		how := "guard every row with the amount its branch subtracts"
		if ruleClamps {
			how = "subtract plainly in every branch and guard every row with the amount it subtracts"
		}
		return how + ", and roll the transaction back unless RowsAffected equals the number of rows in the batch: `" +
			batchGuardSQL(table, d.col, d.batch, plainCol, amount) + "`"
	}
	guard, write := col+" >= "+amountText, "subtract without the clamp (`"+col+" = "+col+" - "
	if d.signedBy != "" {
		// The caller passes the amount negated: the sum must stay >= 0.
		guard, write = col+" + "+amountText+" >= 0", "add without the clamp (`"+col+" = "+col+" + "
	}
	how := "add `AND " + guard + "` to the WHERE"
	if ruleClamps {
		how = write + amountText + "`), add `AND " + guard + "` to the WHERE,"
	}
	how += " and treat RowsAffected == 0 as insufficient"
	if len(w.targets) != 1 || !simpleAmount(arm.amount) {
		return how
	}
	if d.signedBy != "" {
		return how + ": `UPDATE " + schema.QuoteIdent(table) + " SET " + plainCol + " = " + plainCol + " + " + amount +
			" WHERE " + key + " AND " + plainCol + " + " + amount + " >= 0`"
	}
	return how + ": `" + guardedDecrementSQL(table, key, plainCol, amount) + "`"
}
