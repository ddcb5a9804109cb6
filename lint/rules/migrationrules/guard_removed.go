package migrationrules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// GuardRemoved reports migrations that take away a guard a schema rule
// asks for: the CHECK of a counter, the UNIQUE index of a business key,
// the version column, a counter's NOT NULL, strict mode.
var GuardRemoved = &lint.Rule{
	Code:    "GM005",
	Name:    "guard-removed",
	Summary: "a migration drops a guard another rule relies on: a counter's CHECK or NOT NULL, a business key's UNIQUE, the version column, strict sql_mode",
	Doc: "The guards that hold when a Redis lock does not are in the schema: CHECK (qty >= 0) " +
		"turns an oversell into an error, UNIQUE (pay_no) turns a replayed payment into a " +
		"duplicate-key error, the version column makes read-modify-write a compare-and-set, " +
		"strict sql_mode makes out-of-range writes fail instead of clamping. A migration that " +
		"drops one (DROP CHECK, DROP INDEX, MODIFY to NULL, ALTER CHECK NOT ENFORCED, DROP " +
		"COLUMN version, SET GLOBAL sql_mode without STRICT, SET GLOBAL " +
		"check_constraint_checks = OFF) removes the line every statement relies on, often as " +
		"a side effect of a rename or a type change. guard judges the table before and after " +
		"each statement with the schema rules: the finding names the rule that will then fire " +
		"and where.",
	Fix: "keep the guard: put it back in the same statement (DROP CHECK c, ADD CONSTRAINT c CHECK (…)), " +
		"or drop it only with its replacement",
	Kind:     lint.KindMigration,
	Severity: policy.SevError,
	Run:      runGuardRemoved,
}

// guardRules are the schema rules whose findings a migration brings about
// when it removes what they look for.
var guardRules = []*lint.Rule{
	schemarules.CheckUnenforced,
	schemarules.CounterWithoutCheck,
	schemarules.NullableCounter,
	schemarules.BusinessKeyNotUnique,
	schemarules.MissingVersionColumn,
	schemarules.BadVersionColumn,
}

func runGuardRemoved(p *lint.Pass) error {
	replay(p, func(s step) func(*schema.Schema) {
		switch n := s.st.Node.(type) {
		case *sqlparse.SetStmt:
			looserMode(p, s.st, n)
			return nil
		case *sqlparse.AlterTableStmt:
			if onlyAdds(n) {
				return nil
			}
			return compareGuards(p, s, lint.TableKey(n.Table), renames(n))
		case *sqlparse.DropIndexStmt:
			return compareGuards(p, s, lint.TableKey(n.Table), false)
		}
		return nil
	})
	return nil
}

// onlyAdds reports whether an ALTER only adds columns, keys and checks or
// sets table options: it takes no guard away.
func onlyAdds(n *sqlparse.AlterTableStmt) bool {
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableAddColumns, sqlparse.AlterTableAddConstraint, sqlparse.AlterTableAlgorithm,
			sqlparse.AlterTableLock, sqlparse.AlterTableOption:
		default:
			return false
		}
	}
	return true
}

// renames reports whether an ALTER renames its table: the guards then go
// with it, under the new name.
func renames(n *sqlparse.AlterTableStmt) bool {
	for _, sp := range n.Specs {
		if sp.Tp == sqlparse.AlterTableRenameTable {
			return true
		}
	}
	return false
}

// compareGuards judges the schema rules on table t before the statement,
// and returns what judges it after: a finding the statement brought about
// is a guard it removed.
func compareGuards(p *lint.Pass, s step, t string, renamed bool) func(*schema.Schema) {
	tb := s.before.Table(t)
	if tb == nil || renamed || s.empty[t] {
		return nil
	}
	old := tb.Clone()
	before := guardFindings(p, old)
	return func(after *schema.Schema) {
		ta := after.Table(t)
		if ta == nil {
			return // dropped: GM004's
		}
		var final map[string]lint.Finding // the final table's, read at the first removal
		for _, f := range sortedFindings(guardFindings(p, ta)) {
			if _, had := before[guardKey(f)]; had || !removed(old, f) {
				continue
			}
			if final == nil {
				final = map[string]lint.Finding{}
				if tf := p.Schema.Table(t); tf != nil {
					final = guardFindings(p, tf)
				}
			}
			sev := p.Policy.Severity(p.Rule.Code, policy.SevError)
			later := ""
			if _, stays := final[guardKey(f)]; !stays {
				// A later migration puts it back: a window, not a loss.
				sev = p.Policy.Severity(p.Rule.Code, policy.SevWarning)
				later = " until a later migration puts it back"
			}
			where := ""
			if f.File != "" {
				where = fmt.Sprintf(" at %s:%d", f.File, f.Line)
			}
			report(p, s.st, sev, ta.Name, f.ColumnName,
				fmt.Sprintf("%s %s will then report%s: %s; %s", f.Code, f.Rule, where, f.Message, p.Rule.Fix),
				fmt.Sprintf("this statement removes a guard of %s%s: %s", ta.Name, later, lowerFirst(f.Message)))
		}
	}
}

// guardFindings runs the guard rules on table t alone, by guardKey.
func guardFindings(p *lint.Pass, t *schema.Table) map[string]lint.Finding {
	one := schema.New()
	one.Add(t)
	out := map[string]lint.Finding{}
	for _, r := range guardRules {
		if p.Policy.Severity(r.Code, r.Severity) == policy.SevOff {
			continue
		}
		pass := lint.NewPass(r, p.Policy, one, nil, nil, nil, func(f lint.Finding) {
			out[guardKey(f)] = f
		})
		if err := r.Run(pass); err != nil {
			continue
		}
	}
	return out
}

func guardKey(f lint.Finding) string {
	return f.Code + "\x00" + strings.ToLower(f.ColumnName)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// looserMode reports a SET GLOBAL (or PERSIST) that takes strict mode or
// CHECK evaluation away from every session of the server. A session-scoped
// SET, as a dump's header writes, changes only the migration's own
// connection and is not reported.
func looserMode(p *lint.Pass, st *lint.Statement, n *sqlparse.SetStmt) {
	for _, v := range n.Variables {
		if v == nil || !v.IsSystem || !v.IsGlobal {
			continue
		}
		text, ok := settingText(v.Value)
		if !ok {
			continue
		}
		val := strings.ToUpper(text)
		switch strings.ToLower(v.Name) {
		case "sql_mode":
			if strings.Contains(val, "STRICT_TRANS_TABLES") || strings.Contains(val, "STRICT_ALL_TABLES") {
				continue
			}
			report(p, st, p.Policy.Severity(p.Rule.Code, policy.SevError), "", "",
				"GS001 strict-sql-mode will then report on every live audit of the server; keep STRICT_TRANS_TABLES in the global sql_mode",
				fmt.Sprintf("SET GLOBAL sql_mode = '%s' turns strict mode off for every session: out-of-range and truncated writes are clamped with a warning instead of failing", text))
		case "check_constraint_checks":
			if val != "0" && val != "OFF" && val != "FALSE" {
				continue
			}
			report(p, st, p.Policy.Severity(p.Rule.Code, policy.SevError), "", "",
				"GS002 check-unenforced will then report every CHECK on a live audit; leave check_constraint_checks ON",
				"SET GLOBAL check_constraint_checks = "+text+" stops MariaDB evaluating every CHECK constraint: a counter can go negative again")
		}
	}
}

// settingText is the value a SET assigns, as text: a literal, or a bare
// word such as OFF, which parses as a name.
func settingText(e sqlparse.ExprNode) (string, bool) {
	if c, ok := e.(*sqlparse.ColumnNameExpr); ok && c.Name.Table.L == "" {
		return c.Name.Name.O, true
	}
	lit, ok := sqlparse.LiteralOf(e)
	return lit.Text, ok
}

// sortedFindings returns fs in the order of their keys, so that a
// statement removing two guards reports them in a stable order.
func sortedFindings(fs map[string]lint.Finding) []lint.Finding {
	keys := make([]string, 0, len(fs))
	for k := range fs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]lint.Finding, len(keys))
	for i, k := range keys {
		out[i] = fs[k]
	}
	return out
}

// removed reports whether finding f of the table after a statement is a
// guard the statement took from old, the table before it, rather than
// one a column or constraint the statement added never had: every
// column f names existed, and a CHECK GS002 names was enforced.
func removed(old *schema.Table, f lint.Finding) bool {
	cols := strings.Split(f.ColumnName, ",")
	if f.Gap != nil {
		cols = f.Gap.Columns
	}
	for _, c := range cols {
		if c = strings.TrimSpace(c); c != "" && old.Column(c) == nil {
			return false
		}
	}
	if f.Code != schemarules.CheckUnenforced.Code {
		return true
	}
	for _, ch := range old.Checks {
		if ch.Enforced && strings.Contains(f.Message, ch.Name) {
			return true
		}
	}
	return false
}
