package schemarules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// NonTransactionalEngine reports tables stored in an engine other than InnoDB.
var NonTransactionalEngine = &lint.Rule{
	Code:    "GS008",
	Name:    "non-transactional-engine",
	Summary: "engine is not InnoDB",
	Doc: "All of guard's advice assumes InnoDB: row locks for a conditional UPDATE, " +
		"transactions that roll back a half-done deduction, crash-safe writes. MyISAM and " +
		"Aria lock whole tables and never roll back, MEMORY loses every row on restart, and " +
		"CHECK and UNIQUE enforcement there does not undo the statements that already ran.",
	Fix:      "ALTER TABLE t_inventory ENGINE=InnoDB (rebuilds the table: its own migration, in a quiet window)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runNonTransactionalEngine,
}

func runNonTransactionalEngine(p *lint.Pass) error {
	for _, t := range tables(p) {
		if t.Engine == "" || strings.EqualFold(t.Engine, "InnoDB") {
			continue
		}
		p.ReportTableFix(t, "", fixEngine(t), "%s uses ENGINE=%s, not InnoDB: no transactions, no row locks, no rollback of a failed write",
			t.Name, t.Engine)
	}
	return nil
}
