package rules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/stmt"
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
		"the value as a parameter of a prepared statement and keeps the SQL fixed. Constants are not " +
		"reported: OGNL static fields (${@com.x.Status@PAID}), and in MyBatis Generator mappers the " +
		"Example criteria, the column enums and an orderByClause no caller sets from outside.",
	Fix: "bind values with #{…}: `UPDATE t_inventory SET inventory = inventory - #{n} WHERE id = #{id} " +
		"AND inventory >= #{n}`; for an identifier (table, column, ORDER BY) choose among constants in " +
		"the mapper with <choose>/<when> instead of pasting it",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Run:      runMybatisDollar,
}

func runMybatisDollar(pass *lint.Pass) error {
	// A dynamic statement comes as several variants, each a fragment with
	// the ${…} it renders: the statement is reported once, naming every
	// substitution of all its variants. A fragment that holds several
	// statements reports each at the statement whose lines hold it.
	type host struct {
		stmt  mapperStatement
		index int // of the owner among the fragment's statements
	}
	type site struct{ line, col int }
	type statement struct {
		owner  *lint.Statement
		dollar []stmt.Dollar
		seen   map[site]bool
	}
	var order []host
	byHost := map[host]*statement{}
	byFragment := map[*stmt.Fragment][]*lint.Statement{}
	for _, st := range pass.Statements {
		if fr := st.Fragment; fr != nil && len(fr.Dollar) > 0 {
			byFragment[fr] = append(byFragment[fr], st)
		}
	}
	for _, st := range pass.Statements {
		fr := st.Fragment
		stmts := byFragment[fr]
		if len(stmts) == 0 || stmts[0] != st {
			continue // each fragment once, at its first statement
		}
		for _, d := range fr.Dollar {
			if !reportedDollar(pass, fr, d) {
				continue
			}
			owner, index := dollarOwner(stmts, d)
			h := host{statementOf(fr), index}
			s := byHost[h]
			if s == nil {
				s = &statement{owner: owner, seen: map[site]bool{}}
				byHost[h] = s
				order = append(order, h)
			}
			if k := (site{d.Line, d.Col}); !s.seen[k] {
				s.seen[k] = true
				s.dollar = append(s.dollar, d)
			}
		}
	}
	for _, h := range order {
		s := byHost[h]
		// Reported at the statement (DESIGN §5), naming where each ${} stands.
		pass.ReportStatementFix(s.owner, "", "", dollarFix(s.dollar), "%s", dollarMessage(s.dollar))
	}
	return nil
}

// reportedDollar reports whether substitution d of fragment fr is a finding:
// a caller-supplied clause only when some caller may pass a non-constant.
func reportedDollar(pass *lint.Pass, fr *stmt.Fragment, d stmt.Dollar) bool {
	if d.CallerSupplied == "" {
		return true
	}
	return pass.ClauseMayVary != nil && pass.ClauseMayVary(fr, d.CallerSupplied)
}

// dollarFix is the advice for the substitutions ds of one statement, naming them.
func dollarFix(ds []stmt.Dollar) string {
	var binds []string
	for _, d := range ds {
		binds = append(binds, "#{"+d.Expr+"} instead of ${"+d.Expr+"}")
	}
	return "bind the value with " + strings.Join(binds, ", ") + "; if it is an identifier (a table, a " +
		"column, an ORDER BY direction), choose among constants in the mapper with <choose>/<when> instead of pasting it"
}

// dollarMessage says what the substitutions ds of one statement do.
func dollarMessage(ds []stmt.Dollar) string {
	if len(ds) == 1 {
		d := ds[0]
		return fmt.Sprintf("MyBatis ${%s} at %d:%d pastes a raw string into the SQL: an injection risk, "+
			"and the statement the server runs cannot be checked; bind a value with #{%s}, "+
			"or pick an identifier among constants of the mapper", d.Expr, d.Line, d.Col, d.Expr)
	}
	var names []string
	for _, d := range ds {
		names = append(names, fmt.Sprintf("${%s} at %d:%d", d.Expr, d.Line, d.Col))
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return "MyBatis " + list + " paste raw strings into the SQL: an injection risk, and the statement " +
		"the server runs cannot be checked; bind values with #{…}, or pick identifiers among constants of the mapper"
}

// dollarOwner returns the statement of a fragment whose lines hold d, or the
// fragment's first statement when none does (the substitution stood in text
// the extractor left out of the SQL), and its index in stmts.
func dollarOwner(stmts []*lint.Statement, d stmt.Dollar) (*lint.Statement, int) {
	for i, st := range stmts {
		if d.Line >= st.Line && d.Line <= st.EndLine {
			return st, i
		}
	}
	return stmts[0], 0
}
