package rules

import (
	"cmp"
	"fmt"
	"slices"
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
		"Example criteria, the column enums and an orderByClause no caller sets from outside. Nor is a value checked " +
		"before use: a parameter or field whose @Pattern admits only names, or whose constraint's validator accepts " +
		"a fixed list, or a value the method checks against constants first (a constant set's contains, a switch whose " +
		"default throws, a constant map's get). One call that sets the clause of several generated statements is one " +
		"finding, at the call.",
	Fix: "bind values with #{…}: `UPDATE t_inventory SET inventory = inventory - #{n} WHERE id = #{id} " +
		"AND inventory >= #{n}`; for an identifier (table, column, ORDER BY) choose among constants in " +
		"the mapper with <choose>/<when> instead of pasting it",
	Kind:     lint.KindQuery,
	Severity: policy.SevError,
	Run:      runMybatisDollar,
	Join:     dollarJoin,
}

func runMybatisDollar(pass *lint.Pass) error {
	// A dynamic statement comes as several variants, each a fragment with
	// the ${…} it renders: the statement is reported once, naming every
	// substitution of all its variants. A fragment that holds several
	// statements reports each at the statement whose lines hold it. A
	// generated clause a caller sets is reported apart, naming the calls
	// that set it (its causes): one call whose clause several statements
	// paste is one finding, at the call (dollarJoin).
	type host struct {
		stmt  mapperStatement
		index int // of the owner among the fragment's statements
	}
	var order []host
	byHost := map[host]*dollarStatement{}
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
			reported, causes := reportedDollar(pass, fr, d)
			if !reported {
				continue
			}
			owner, index := dollarOwner(stmts, d)
			h := host{statementOf(fr), index}
			s := byHost[h]
			if s == nil {
				s = &dollarStatement{owner: owner, seen: map[dollarSite]bool{}}
				byHost[h] = s
				order = append(order, h)
			}
			s.add(d, causes)
		}
	}
	for _, h := range order {
		s := byHost[h]
		// Reported at the statement (DESIGN §5), naming where each ${} stands;
		// one finding a statement, as the variants of a dynamic one are
		// deduplicated by statement and code.
		if len(s.dollar) > 0 {
			all := slices.Concat(s.dollar, s.supplied)
			slices.SortFunc(all, func(a, b stmt.Dollar) int { return cmp.Or(a.Line-b.Line, a.Col-b.Col) })
			msg := dollarMessage(all)
			if len(s.causes) > 0 {
				msg += "; " + setByNote(s.causes)
			}
			pass.ReportStatementFix(s.owner, "", "", dollarFix(all), "%s", msg)
			continue
		}
		// Only clauses callers set: the calls are the causes, joined into
		// one finding at a call several statements share.
		st := s.owner
		pass.Report(lint.Finding{File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine,
			Message: dollarMessage(s.supplied) + "; " + setByNote(s.causes), Fix: suppliedFix,
			SQL: lint.Compact(st.SQL), Causes: s.causes})
	}
	return nil
}

// dollarSite is where a substitution stands.
type dollarSite struct{ line, col int }

// dollarStatement gathers the substitutions one statement reports: its
// own, and the generated clauses callers set (supplied), with the calls
// that set them.
type dollarStatement struct {
	owner            *lint.Statement
	dollar, supplied []stmt.Dollar
	causes           []lint.Cause
	seen             map[dollarSite]bool
}

// add records substitution d, set by the calls causes when it is a
// caller-supplied clause.
func (s *dollarStatement) add(d stmt.Dollar, causes []lint.Cause) {
	k := dollarSite{d.Line, d.Col}
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	if d.CallerSupplied == "" {
		s.dollar = append(s.dollar, d)
		return
	}
	s.supplied = append(s.supplied, d)
	for _, c := range causes {
		if !slices.ContainsFunc(s.causes, func(o lint.Cause) bool { return o.File == c.File && o.Line == c.Line && o.Col == c.Col }) {
			s.causes = append(s.causes, c)
		}
	}
}

// reportedDollar reports whether substitution d of fragment fr is a
// finding: a caller-supplied clause only when some caller may set it to a
// value no check vouches for (those calls are its causes), any other
// unless every value that reaches it is checked.
func reportedDollar(pass *lint.Pass, fr *stmt.Fragment, d stmt.Dollar) (bool, []lint.Cause) {
	if d.CallerSupplied != "" {
		if pass.ClauseSetters == nil {
			return false, nil
		}
		causes := pass.ClauseSetters(fr, d.CallerSupplied)
		return len(causes) > 0, causes
	}
	return pass.DollarChecked == nil || !pass.DollarChecked(fr, d), nil
}

// suppliedFix is the advice for a generated clause a caller sets.
const suppliedFix = "check the value before the setter against a fixed list — `if (!SORTS.contains(sort)) throw " +
	"new IllegalArgumentException(sort);` with SORTS a constant Set, a switch whose default throws, a constant " +
	"Map's get, or @Pattern on the parameter — or build the clause from constants"

// setByNote names the calls that set a generated clause and what they
// pass unchecked.
func setByNote(causes []lint.Cause) string {
	var parts []string
	for _, c := range causes {
		parts = append(parts, fmt.Sprintf("%s at %s:%d%s", c.Call, c.File, c.Line, uncheckedNote(c)))
	}
	return "set by " + joinAnd(parts)
}

// uncheckedNote says what cause c passes that no check vouches for.
func uncheckedNote(c lint.Cause) string {
	if len(c.Unchecked) == 0 {
		return ""
	}
	return " from " + joinAnd(c.Unchecked) + ", which no check vouches for"
}

// joinAnd lists parts as a sentence does: "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// dollarJoin is the one finding of a call that sets the generated clause
// several statements paste, standing at the call: the statements are
// listed, and one check there is the fix of them all.
func dollarJoin(c lint.Cause, pieces []lint.Finding) lint.Finding {
	var where []string
	for _, p := range pieces {
		if w := fmt.Sprintf("%s:%d", p.File, p.Line); !slices.Contains(where, w) {
			where = append(where, w)
		}
	}
	slices.Sort(where)
	msg := fmt.Sprintf("MyBatis Generator mappers paste the clause %s sets into %d statements (%s)%s: an injection risk "+
		"in each, and the statements the server runs cannot be checked; one check here covers them all",
		c.Call, len(where), strings.Join(where, ", "), uncheckedNote(c))
	return lint.Finding{File: c.File, Line: c.Line, Column: c.Col, EndLine: max(c.EndLine, c.Line), Message: msg, Fix: suppliedFix}
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
