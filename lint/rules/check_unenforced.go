package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// CheckUnenforced reports CHECK constraints that the server does not enforce.
var CheckUnenforced = &lint.Rule{
	Code:    "GS002",
	Name:    "check-unenforced",
	Summary: "CHECK declared NOT ENFORCED, or live server older than MySQL 8.0.16",
	Doc: "A CHECK constraint is the last line of defence when a lock is lost and two writers " +
		"decrement the same row: the server rejects the write that would go negative. MySQL 8 " +
		"accepts CHECK ... NOT ENFORCED, which is stored and shown but never evaluated, and " +
		"servers older than MySQL 8.0.16 parse CHECK and ignore it. Either way the constraint " +
		"reads like a guard and guards nothing.",
	Fix: "ALTER TABLE t ALTER CHECK chk_qty ENFORCED (validates every row: run it in its own " +
		"migration, and clean negative rows first); on an old server upgrade to MySQL 8.0.16+ " +
		"or MariaDB 10.2.1+",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runCheckUnenforced,
}

func runCheckUnenforced(p *lint.Pass) error {
	serverIgnores := p.Live != nil && !p.Live.EnforceCheck
	for _, t := range tables(p) {
		if len(t.Checks) == 0 {
			continue
		}
		if serverIgnores {
			server := "the server"
			if p.Live.Version != "" {
				server = "server " + p.Live.Version
			}
			verb := "guards"
			if len(t.Checks) > 1 {
				verb = "guard"
			}
			p.ReportTableFix(t, checkColumn(t.Checks), fixOldServer(t), "%s does not enforce CHECK constraints: %s on %s %s nothing",
				server, describeChecks(t.Checks), t.Name, verb)
			continue
		}
		var off []*schema.Check
		for _, c := range t.Checks {
			if !c.Enforced {
				off = append(off, c)
			}
		}
		if len(off) == 0 {
			continue
		}
		// One finding per table: findings of one table without a column
		// would otherwise be folded into one.
		verb := "is"
		if len(off) > 1 {
			verb = "are"
		}
		p.ReportTableFix(t, checkColumn(off), fixEnforce(t, off), "%s on %s %s NOT ENFORCED: the server never evaluates it",
			describeChecks(off), t.Name, verb)
	}
	return nil
}

// describeChecks prints checks as `CHECK name (expr)`, joined.
func describeChecks(checks []*schema.Check) string {
	parts := make([]string, len(checks))
	for i, c := range checks {
		s := "CHECK"
		if c.Name != "" {
			s += " " + c.Name
		}
		if c.Expr != "" {
			s += " (" + c.Expr + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// checkColumn returns the one column the checks guard, or "" when they guard
// none or several.
func checkColumn(checks []*schema.Check) string {
	col := ""
	for _, c := range checks {
		for _, n := range c.NonNegative {
			switch {
			case col == "":
				col = n
			case !strings.EqualFold(col, n):
				return ""
			}
		}
	}
	return col
}

// fixOldServer is the advice for a server that ignores CHECK: upgrade, and
// until then keep the guard of each column the checks meant in the writes.
func fixOldServer(t *schema.Table) string {
	fix := "upgrade the server to MySQL 8.0.16+ or MariaDB 10.2.1+, which enforce CHECK"
	var cols []string
	seen := map[string]bool{}
	for _, c := range t.Checks {
		for _, n := range c.NonNegative {
			if !seen[strings.ToLower(n)] {
				seen[strings.ToLower(n)] = true
				cols = append(cols, n)
			}
		}
	}
	if len(cols) == 0 {
		return fix
	}
	guards := make([]string, len(cols))
	for i, c := range cols {
		guards[i] = "`AND " + q(c) + " >= ?`"
	}
	return fix + "; until then only the statements guard " + q(t.Name) + ": keep " + strings.Join(guards, ", ") +
		" in every decrement and check RowsAffected"
}
