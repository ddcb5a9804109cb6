package schemarules

import (
	"fmt"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// CounterWithoutCheck reports counter columns that no enforced CHECK keeps non-negative.
var CounterWithoutCheck = &lint.Rule{
	Code:    "GS003",
	Name:    "counter-without-check",
	Summary: "counter column has no CHECK (col >= 0); UNSIGNED without CHECK is a warning",
	Doc: "A conditional UPDATE (quantity >= ?) guards the statements that remember it; a CHECK " +
		"guards every statement, including the one written next year without the condition, " +
		"the manual fix in a console and the batch job. When a Redis lock is lost, the CHECK " +
		"is what turns an oversell into an error (3819 on MySQL, 4025 on MariaDB). An UNSIGNED " +
		"column already rejects q - 5 below zero (error 1690), but outside strict mode an " +
		"absolute write of a negative value is clamped to 0 without error, so it is a warning.",
	Fix: "ALTER TABLE t_inventory ADD CONSTRAINT chk_inventory_nonneg CHECK (inventory >= 0) " +
		"(validates every row and copies the table: one statement in its own migration; " +
		"`guard plan` writes it)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runCounterWithoutCheck,
}

func runCounterWithoutCheck(p *lint.Pass) error {
	for _, t := range tables(p) {
		for _, c := range lint.CountingColumns(p.Policy, t) {
			chk := t.NonNegativeCheck(c.Name)
			if chk != nil && chk.Enforced {
				continue
			}
			if t.ChecksUnknown {
				p.Report(cannotTellCheck(p, t, c.Name))
				continue
			}
			why := fmt.Sprintf("counter %s.%s has no CHECK (%s >= 0)", t.Name, c.Name, c.Name)
			if chk != nil {
				why = fmt.Sprintf("counter %s.%s has only a NOT ENFORCED CHECK (%s >= 0)", t.Name, c.Name, c.Name)
			}
			gap := lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: []string{c.Name}, Unenforced: chk}
			if !c.Unsigned {
				p.ReportGap(t, gap, c.Name, fixAddCheck(t, c.Name), "%s: nothing in the database stops it going negative", why)
				continue
			}
			// UNSIGNED already rejects relative decrements below zero; what
			// remains is the clamp of absolute writes in non-strict mode.
			f := tableFinding(t, c.Name, why+": it is UNSIGNED, so decrements below zero fail (1690), "+
				"but a negative absolute write is clamped to 0 outside strict mode")
			f.Severity = p.Policy.Severity(p.Rule.Code, policy.SevWarning)
			f.Fix = fixAddCheck(t, c.Name)
			f.Gap = &gap
			p.Report(f)
		}
	}
	return nil
}

// cannotTellCheck is the finding on a counter of a table whose CHECK
// constraints the live account could not read: the absence of a CHECK is
// not seen, so it is information, never an error, and no gap to plan.
func cannotTellCheck(p *lint.Pass, t *schema.Table, col string) lint.Finding {
	f := tableFinding(t, col, fmt.Sprintf("cannot tell whether counter %s.%s has a CHECK (%s >= 0): "+
		"the account cannot see %s's CHECK constraints", t.Name, col, col, t.Name))
	f.Severity = policy.SevInfo
	if p.Policy.Severity(p.Rule.Code, p.Rule.Severity) == policy.SevOff {
		f.Severity = policy.SevOff
	}
	f.Fix = fmt.Sprintf("audit with an account that holds a privilege on the whole database (GRANT SELECT ON db.*), "+
		"or any privilege on the table %s (SHOW CREATE TABLE then shows its checks)", t.Name)
	return f
}
