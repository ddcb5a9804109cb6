package rules

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// WriteWithoutWhere flags UPDATE and DELETE statements that touch every row.
var WriteWithoutWhere = &lint.Rule{
	Code:    "GQ001",
	Name:    "write-without-where",
	Summary: "UPDATE/DELETE with no WHERE, or an always-true one (`1=1`, `WHERE 1`)",
	Doc: "An UPDATE or DELETE without a restricting WHERE writes every row of the table, and a " +
		"WHERE that is always true (`1=1`, `WHERE 1`, `TRUE`) is no restriction at all; LIMIT only " +
		"picks which rows suffer. Such statements usually come from a condition that was meant to be " +
		"there: a MyBatis <where> whose every <if> was absent, or a string built at run time. No lock " +
		"makes them safe: they overwrite every counter, balance and state in one go.",
	Fix: "restrict the write to the rows it means, e.g. " +
		"`UPDATE t_order SET status = ? WHERE id = ? AND status = ?`; in MyBatis keep one " +
		"mandatory condition outside the <if> elements (`WHERE id = #{id}`)",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Run:      runWriteWithoutWhere,
}

func runWriteWithoutWhere(pass *lint.Pass) error {
	mapperWritesWithoutWhere(pass)
	var changed scriptColumns // built on the first UPDATE without WHERE of a .sql file
	for _, st := range pass.Statements {
		w := writeTargets(st, pass.Schema)
		if w == nil || (w.kind != writeUpdate && w.kind != writeDelete) || whereFromCaller(st) {
			continue
		}
		if w.where == nil && len(w.on) == 0 && w.kind == writeUpdate && lang(st) == stmt.LangSQL {
			if changed == nil {
				changed = scriptColumnsOf(pass.Statements)
			}
			if changed.backfills(st.File, w) {
				continue
			}
		}
		var why string
		switch {
		case w.where == nil && len(w.on) == 0:
			why = "has no WHERE"
		case w.where == nil:
			if alwaysTrueAll(w.on) {
				why = "has no WHERE and its JOIN conditions are always true"
			}
		case alwaysTrueAll(w.on) && alwaysTrueAll([]sqlparse.ExprNode{w.where}):
			why = "has an always-true WHERE (" + exprText(w.where) + ")"
		}
		if why == "" {
			continue
		}
		table := ""
		if len(w.targets) > 0 {
			table = w.targets[0].tableName()
		}
		msg := w.kind.String() + " " + why + ": it writes every row of " + orUnknown(table)
		if st.Fragment != nil && st.Fragment.Variant != "" {
			msg += " (MyBatis statement " + quoteID(st.Fragment.ID) + st.Fragment.Variant + ")"
		}
		pass.ReportStatementFix(st, table, "", restrictFix(st, w), "%s", msg)
	}
	return nil
}

// restrictFix is the advice for a write of every row: the same kind of
// statement on the same table, restricted to one row by its key.
func restrictFix(st *lint.Statement, w *write) string {
	if len(w.targets) == 0 || w.targets[0].tableName() == "" {
		return ""
	}
	t := w.targets[0]
	key := rowKey(nil, t)
	var sql string
	switch w.kind {
	case writeUpdate:
		sql = "UPDATE " + schema.QuoteIdent(t.tableName()) + " SET … WHERE " + key
	case writeDelete:
		sql = "DELETE FROM " + schema.QuoteIdent(t.tableName()) + " WHERE " + key
	default:
		return ""
	}
	fix := "restrict the " + w.kind.String() + " to the rows it means: `" + sql + "`"
	if st.Fragment != nil && st.Fragment.Lang == stmt.LangXML {
		mybatis := "<key> = #{key}"
		if pk := keyColumns(t); len(pk) > 0 {
			parts := make([]string, len(pk))
			for i, c := range pk {
				parts[i] = schema.QuoteIdent(c) + " = #{" + c + "}"
			}
			mybatis = strings.Join(parts, " AND ")
		}
		fix += "; in the mapper keep one mandatory condition outside the <if> elements (`WHERE " + mybatis + "`)"
	}
	return fix
}

// orUnknown names a table in a message, or says it is unknown.
func orUnknown(table string) string {
	if table == "" {
		return "the table"
	}
	return table
}

// quoteID prints a MyBatis id followed by a space, or nothing.
func quoteID(id string) string {
	if id == "" {
		return ""
	}
	return strconv.Quote(id) + " "
}

// alwaysTrueAll reports whether every expression of es is always true.
func alwaysTrueAll(es []sqlparse.ExprNode) bool {
	for _, e := range es {
		if !proven(e, true) {
			return false
		}
	}
	return true
}

// proven reports whether truth(e) is known to be want, evaluating no more
// of e than it takes: `id = ? AND …` is not proven true once its first
// conjunct is not, whatever follows, and most WHERE clauses are decided so.
func proven(e sqlparse.ExprNode, want bool) bool {
	e = unparen(e)
	switch x := e.(type) {
	case *sqlparse.BinaryOperationExpr:
		switch {
		case x.Op == sqlparse.OpLogicAnd && want, x.Op == sqlparse.OpLogicOr && !want:
			return proven(x.L, want) && proven(x.R, want)
		case x.Op == sqlparse.OpLogicAnd, x.Op == sqlparse.OpLogicOr:
			return proven(x.L, want) || proven(x.R, want)
		}
	case *sqlparse.UnaryOperationExpr:
		if x.Op == sqlparse.OpNot || x.Op == sqlparse.OpNot2 {
			return proven(x.V, !want)
		}
	}
	v, known := truth(e)
	return known && v == want
}

// truth evaluates a condition made of constants. known is false as soon as
// the value depends on a row, a placeholder or a function: only conditions
// proven always true are reported.
func truth(e sqlparse.ExprNode) (value, known bool) {
	e = unparen(e)
	switch x := e.(type) {
	case *sqlparse.BinaryOperationExpr:
		switch x.Op {
		case sqlparse.OpLogicAnd:
			l, lk := truth(x.L)
			r, rk := truth(x.R)
			if (lk && !l) || (rk && !r) {
				return false, true
			}
			return lk && rk, lk && rk
		case sqlparse.OpLogicOr:
			l, lk := truth(x.L)
			r, rk := truth(x.R)
			if (lk && l) || (rk && r) {
				return true, true
			}
			return false, lk && rk
		}
		return compareConst(x)
	case *sqlparse.UnaryOperationExpr:
		if x.Op == sqlparse.OpNot || x.Op == sqlparse.OpNot2 {
			v, k := truth(x.V)
			return !v, k
		}
	case sqlparse.ParamMarkerExpr:
		return false, false
	case sqlparse.ValueExpr:
		if n, ok := numberOf(x); ok {
			return n != 0, true
		}
		switch v := x.GetValue().(type) {
		case nil:
			return false, true // NULL is not true
		case string:
			// A string is true when its numeric prefix is non-zero; only
			// whole numbers are evaluated here.
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				return f != 0, true
			}
		}
	}
	if n, ok := numberOf(e); ok {
		return n != 0, true
	}
	return false, false
}

// compareConst evaluates a comparison of two literals.
func compareConst(b *sqlparse.BinaryOperationExpr) (value, known bool) {
	if ln, ok := numberOf(b.L); ok {
		rn, ok := numberOf(b.R)
		if !ok {
			return false, false
		}
		switch b.Op {
		case sqlparse.OpEQ, sqlparse.OpNullEQ:
			return ln == rn, true
		case sqlparse.OpNE:
			return ln != rn, true
		case sqlparse.OpLT:
			return ln < rn, true
		case sqlparse.OpLE:
			return ln <= rn, true
		case sqlparse.OpGT:
			return ln > rn, true
		case sqlparse.OpGE:
			return ln >= rn, true
		}
		return false, false
	}
	ls, ok1 := stringOf(b.L)
	rs, ok2 := stringOf(b.R)
	if !ok1 || !ok2 {
		return false, false
	}
	// Collations compare case-insensitively and ignore trailing blanks, so
	// only identical and clearly different strings are decided.
	same, differ := ls == rs, !strings.EqualFold(strings.TrimRight(ls, " "), strings.TrimRight(rs, " "))
	switch {
	case (b.Op == sqlparse.OpEQ || b.Op == sqlparse.OpNullEQ) && (same || differ):
		return same, true
	case b.Op == sqlparse.OpNE && (same || differ):
		return differ, true
	}
	return false, false
}

// stringOf returns the value of a string literal.
func stringOf(e sqlparse.ExprNode) (string, bool) {
	e = unparen(e)
	if _, ok := e.(sqlparse.ParamMarkerExpr); ok {
		return "", false
	}
	v, ok := e.(sqlparse.ValueExpr)
	if !ok {
		return "", false
	}
	s, ok := v.GetValue().(string)
	return s, ok
}

// scriptColumns holds, by .sql file and table (lower case), the columns an
// ALTER TABLE of the file adds, modifies, changes or renames.
type scriptColumns map[string]map[string]map[string]bool

// scriptColumnsOf reads the ALTER TABLEs of the .sql files among stmts.
func scriptColumnsOf(stmts []*lint.Statement) scriptColumns {
	out := scriptColumns{}
	for _, st := range stmts {
		alter, ok := st.Node.(*sqlparse.AlterTableStmt)
		if !ok || alter.Table == nil || lang(st) != stmt.LangSQL {
			continue
		}
		table := strings.ToLower(alter.Table.Name.O)
		add := func(name string) {
			if out[st.File] == nil {
				out[st.File] = map[string]map[string]bool{}
			}
			if out[st.File][table] == nil {
				out[st.File][table] = map[string]bool{}
			}
			out[st.File][table][strings.ToLower(name)] = true
		}
		for _, spec := range alter.Specs {
			switch spec.Tp {
			case sqlparse.AlterTableAddColumns, sqlparse.AlterTableModifyColumn, sqlparse.AlterTableChangeColumn:
				for _, def := range spec.NewColumns {
					if def != nil && def.Name != nil {
						add(def.Name.Name.O)
					}
				}
				if spec.OldColumnName != nil {
					add(spec.OldColumnName.Name.O)
				}
			case sqlparse.AlterTableRenameColumn:
				if spec.NewColumnName != nil {
					add(spec.NewColumnName.Name.O)
				}
				if spec.OldColumnName != nil {
					add(spec.OldColumnName.Name.O)
				}
			}
		}
	}
	return out
}

// backfills reports whether w, an UPDATE of one table without WHERE in file,
// sets only columns that an ALTER TABLE of the same script adds or changes:
// the data step of a schema change (`ADD COLUMN fee_rate …` then `UPDATE t
// SET fee_rate = 0`), which is meant to write every row.
func (c scriptColumns) backfills(file string, w *write) bool {
	if len(w.targets) != 1 {
		return false
	}
	cols := c[file][strings.ToLower(w.targets[0].name)]
	as := w.assignments()
	if len(cols) == 0 || len(as) == 0 {
		return false
	}
	for _, a := range as {
		if !cols[strings.ToLower(a.col.name)] {
			return false
		}
	}
	return true
}
