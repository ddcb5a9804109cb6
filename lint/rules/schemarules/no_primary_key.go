package schemarules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// NoPrimaryKey reports tables without a primary key.
var NoPrimaryKey = &lint.Rule{
	Code:    "GS009",
	Name:    "no-primary-key",
	Summary: "table has no primary key",
	Doc: "A guarded write names exactly one row: `WHERE id = ? AND version = ?` and success is " +
		"RowsAffected == 1. Without a primary key nothing says which row that is, duplicates " +
		"of the \"same\" row can appear, InnoDB clusters on a hidden row id that locks and " +
		"replicates poorly, and row-based replication of UPDATEs scans the whole table on " +
		"every replica.",
	Fix:      "ALTER TABLE t_inventory ADD COLUMN id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY (rebuilds the table: its own migration)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runNoPrimaryKey,
}

func runNoPrimaryKey(p *lint.Pass) error {
	for _, t := range wholeTables(p) {
		if len(t.PrimaryKey) == 0 && !hasPrimaryIndex(t) {
			p.ReportTableFix(t, "", fixPrimaryKey(t), "%s has no primary key: a guarded write cannot name exactly one row", t.Name)
		}
	}
	return nil
}

// hasPrimaryIndex reports whether one of t's indexes is the primary key.
func hasPrimaryIndex(t *schema.Table) bool {
	for _, ix := range t.Indexes {
		if ix.Primary {
			return true
		}
	}
	return false
}
