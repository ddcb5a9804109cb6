package schemarules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// NullableCounter reports counter columns that accept NULL.
var NullableCounter = &lint.Rule{
	Code:    "GS004",
	Name:    "nullable-counter",
	Summary: "counter column is NULLable (NULL arithmetic defeats guards)",
	Doc: "Every guard on a counter is a comparison, and a comparison with NULL is unknown, not " +
		"false: CHECK (qty >= 0) accepts NULL, `qty - 1` of NULL is NULL, and " +
		"`WHERE qty >= ?` skips the row, so the deduction reports 0 rows affected and reads " +
		"like \"insufficient stock\" while the real count was lost. A counter is a number; " +
		"a missing number is 0 with NOT NULL DEFAULT 0.",
	Fix: "UPDATE t_inventory SET inventory = 0 WHERE inventory IS NULL; then " +
		"ALTER TABLE t_inventory MODIFY inventory INT NOT NULL DEFAULT 0 (in its own migration)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runNullableCounter,
}

func runNullableCounter(p *lint.Pass) error {
	for _, t := range tables(p) {
		for _, c := range lint.CountingColumns(p.Policy, t) {
			if c.Nullable {
				gap := lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: []string{c.Name}}
				if chk := t.NonNegativeCheck(c.Name); chk != nil && columnCheck(chk, c) {
					gap.Restore = chk
				}
				const why = "counter %s.%s is NULLable: NULL slips past CHECK and WHERE guards and NULL - 1 is NULL"
				if t.ChecksUnknown {
					// The MODIFY that makes it NOT NULL would drop a column
					// CHECK nobody saw: the finding stands, nothing is planned.
					p.ReportTableFix(t, c.Name, fixNotNull(t, c), why+" (not planned: the account cannot see %s's CHECK constraints, "+
						"which the MODIFY could drop)", t.Name, c.Name, t.Name)
					continue
				}
				p.ReportGap(t, gap, c.Name, fixNotNull(t, c), why, t.Name, c.Name)
			}
		}
	}
	return nil
}

// columnCheck reports whether chk is the column-level CHECK of c: MariaDB
// names such a check after its column, and so does FromDDL.
func columnCheck(chk *schema.Check, c *schema.Column) bool {
	return strings.EqualFold(chk.Name, c.Name)
}
