package rules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/source"
	"github.com/guard-sql/guard/lint"
)

// MybatisDollar flags MyBatis ${…} substitutions: text pasted into the SQL
// before it reaches the server.
var MybatisDollar = &lint.Rule{
	Code:    "GQ010",
	Name:    "mybatis-dollar",
	Summary: "MyBatis ${…} substitution (SQL injection; statement cannot be checked)",
	Doc: "MyBatis replaces ${expr} with the raw string value before the statement is prepared, so a " +
		"value that carries a quote or a keyword rewrites the SQL (injection), and the statement the " +
		"server runs is not the one in the mapper. guard cannot know which WHERE guard or SET list " +
		"will reach the database, so the concurrency rules cannot vouch for it either. #{expr} binds " +
		"the value as a parameter of a prepared statement and keeps the SQL fixed.",
	Fix: "bind values with #{…}: `UPDATE t_inventory SET inventory = inventory - #{n} WHERE id = #{id} " +
		"AND inventory >= #{n}`; for an identifier (table, column, ORDER BY) choose among constants in " +
		"the mapper with <choose>/<when> instead of pasting it",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Run:      runMybatisDollar,
}

func runMybatisDollar(pass *lint.Pass) error {
	// A dynamic statement comes as several variants, each a fragment with the
	// same ${…}: a substitution is reported once, with the same message
	// whichever variant reports it.
	type site struct {
		file      string
		line, col int
	}
	seen := map[site]bool{}
	var order []*source.Fragment
	byFragment := map[*source.Fragment][]*lint.Statement{}
	for _, st := range pass.Statements {
		if fr := st.Fragment; fr != nil && len(fr.Dollar) > 0 {
			if byFragment[fr] == nil {
				order = append(order, fr)
			}
			byFragment[fr] = append(byFragment[fr], st)
		}
	}
	for _, fr := range order {
		for _, d := range fr.Dollar {
			st := dollarOwner(byFragment[fr], d)
			k := site{st.File, d.Line, d.Col}
			if seen[k] {
				continue
			}
			seen[k] = true
			// Reported at the statement (DESIGN §5), naming where the ${} stands.
			fix := "bind the value with #{" + d.Expr + "} instead of ${" + d.Expr + "}; if it is an identifier (a table, a " +
				"column, an ORDER BY direction), choose among constants in the mapper with <choose>/<when> instead of pasting it"
			pass.ReportStatementFix(st, "", "", fix, "MyBatis ${%s} at %d:%d pastes a raw string into the SQL: an injection risk, "+
				"and the statement the server runs cannot be checked; bind a value with #{%s}, "+
				"or pick an identifier among constants of the mapper", d.Expr, d.Line, d.Col, d.Expr)
		}
	}
	return nil
}

// dollarOwner returns the statement of a fragment whose lines hold d, or the
// fragment's first statement when none does (the substitution stood in text
// the extractor left out of the SQL).
func dollarOwner(stmts []*lint.Statement, d source.Dollar) *lint.Statement {
	for _, st := range stmts {
		if d.Line >= st.Line && d.Line <= st.EndLine {
			return st
		}
	}
	return stmts[0]
}
