package rules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// NotChecked reports every statement the other rules could not look at, so
// that a gap in guard's view is never mistaken for a clean bill.
var NotChecked = &lint.Rule{
	Code:    "GQ009",
	Name:    "not-checked",
	Summary: "statement unparsable or dynamic (built at run time); says why, never silent",
	Doc: "guard proves a write safe by reading its SQL: the WHERE guard, the version CAS, the " +
		"columns it sets. SQL assembled at run time (fmt.Sprintf, string concatenation, MyBatis ${}) " +
		"or SQL in a dialect the parser does not know cannot be read, so none of the concurrency " +
		"rules ran on it; an unchecked oversell looks exactly like a clean one. This rule lists those " +
		"statements so that each one is either made checkable or reviewed and suppressed with a reason.",
	Fix: "write the statement as one constant string with ? placeholders (build only the argument " +
		"list at run time), e.g. `db.ExecContext(ctx, \"UPDATE t_inventory SET inventory = inventory - ? " +
		"WHERE id = ? AND inventory >= ?\", n, id, n)`; if the SQL is valid syntax guard does not know, " +
		"review it by hand and put a `guard:ignore GQ009 <reason>` comment on the line before it",
	Kind:     lint.KindQuery,
	Severity: policy.SevWarning,
	Run:      runNotChecked,
}

func runNotChecked(pass *lint.Pass) error {
	// Migration statements count too: one the parser rejects is missing from
	// the replayed schema, and nothing else says so.
	stmts := pass.Statements
	for _, m := range pass.Migrations {
		stmts = append(stmts[:len(stmts):len(stmts)], m.Statements...)
	}
	runs := runnableStatements(pass.Statements)
	for _, st := range stmts {
		switch {
		case st.ParseErr != nil && st.Fragment != nil && st.Fragment.EmptiedClause != "" && runs[statementOf(st.Fragment)]:
			// A variant with an empty <set> or <trim> is SQL MyBatis sends
			// and the server refuses; the statement's other variants, which
			// parse, are what it runs.
		case st.Fragment != nil && st.Fragment.Unchecked != "":
			pass.ReportStatement(st, "", "", "not checked: %s", st.Fragment.Unchecked)
		case st.ParseErr != nil:
			// The finding stands at the statement (DESIGN §5: line is the
			// statement's first line); the message says where the parser stopped.
			line, col := st.ErrPos()
			pass.ReportStatement(st, "", "", "not checked: SQL does not parse at %d:%d: %s; the statement may use syntax guard does not know, so no rule checked it",
				line, col, st.ParseErr.Msg)
		}
	}
	return nil
}

// runnableStatements returns the dynamic statements of which some variant parses.
func runnableStatements(stmts []*lint.Statement) map[mapperStatement]bool {
	out := map[mapperStatement]bool{}
	for _, st := range stmts {
		if st.Node != nil && st.Fragment != nil && st.Fragment.Variant != "" {
			out[statementOf(st.Fragment)] = true
		}
	}
	return out
}
