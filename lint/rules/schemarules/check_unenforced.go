package schemarules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// CheckUnenforced reports CHECK constraints that the server does not enforce.
var CheckUnenforced = &lint.Rule{
	Code:    "GS002",
	Name:    "check-unenforced",
	Summary: "CHECK declared NOT ENFORCED, live server older than MySQL 8.0.16, MariaDB's check_constraint_checks OFF (global or session), or TiDB without tidb_enable_check_constraint = ON",
	Doc: "A CHECK constraint is the last line of defence when a lock is lost and two writers " +
		"decrement the same row: the server rejects the write that would go negative. MySQL 8 " +
		"accepts CHECK ... NOT ENFORCED, which is stored and shown but never evaluated, and " +
		"servers older than MySQL 8.0.16 parse CHECK and ignore it. Either way the constraint " +
		"reads like a guard and guards nothing. MariaDB's check_constraint_checks=OFF, globally or " +
		"in a session (a DSN parameter, an init command), switches every CHECK off at once. TiDB parses " +
		"CHECK and ignores it before v7.2, and from v7.2 enforces it only with tidb_enable_check_constraint = ON " +
		"(OFF by default); the finding then says how its transaction mode (tidb_txn_mode) makes the conditional " +
		"UPDATE hold: pessimistic as on MySQL, optimistic only once COMMIT succeeds.",
	Fix: "ALTER TABLE t ALTER CHECK chk_qty ENFORCED (validates every row: run it in its own " +
		"migration, and clean negative rows first); on an old server upgrade to MySQL 8.0.16+ " +
		"or MariaDB 10.2.1+",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runCheckUnenforced,
}

func runCheckUnenforced(p *lint.Pass) error {
	if p.Live != nil {
		reportChecksSwitchedOff(p)
		if p.Live.TiDB != nil {
			// TiDB's CHECK constraints are not read; its finding is the
			// server's switch.
			reportTiDBChecks(p)
			return nil
		}
	}
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

// reportChecksSwitchedOff reports each scope in which MariaDB's
// check_constraint_checks is OFF: every CHECK of the database, and every
// one guard plan would add, is skipped there.
func reportChecksSwitchedOff(p *lint.Pass) {
	checks, tabs := 0, 0
	for _, t := range tables(p) {
		n := 0
		for _, c := range t.Checks {
			if c.Enforced {
				n++
			}
		}
		if n > 0 {
			checks, tabs = checks+n, tabs+1
		}
	}
	what := "no CHECK constraint is evaluated, not even one added later"
	if checks > 0 {
		what = fmt.Sprintf("none of the %s on %s is evaluated", countOf(checks, "CHECK constraint"), countOf(tabs, "table"))
	}
	for _, scope := range p.Live.CheckChecksOff {
		fix := "SET GLOBAL check_constraint_checks = ON, and remove check_constraint_checks=0 from the server " +
			"configuration so that a restart keeps it on"
		if scope == "session" {
			fix = "the session inherits the global value unless the client sets it: drop check_constraint_checks=0 " +
				"from the DSN parameters or the connection's init command"
		}
		p.Report(lint.Finding{
			ColumnName: "@@" + scope + ".check_constraint_checks",
			Message:    scope + " check_constraint_checks is OFF: " + what + ", and a write that breaks one succeeds",
			Fix:        fix,
		})
	}
}

// countOf prints n with noun, adding "s" when n is not 1.
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
