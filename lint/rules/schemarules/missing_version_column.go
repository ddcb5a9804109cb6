package schemarules

import (
	"fmt"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// MissingVersionColumn reports tables that need the version column and lack it.
var MissingVersionColumn = &lint.Rule{
	Code:    "GS006",
	Name:    "missing-version-column",
	Summary: "table with counter/state columns lacks the version column (require_version)",
	// Where the code shows its writes, only the tables some write needs
	// the version for are reported (policy.Inferred.Versioned).
	Doc: "A write computed from an earlier read (read the row, decide in code, write it back) " +
		"is only safe as a compare-and-set: `... WHERE id = ? AND version = ?` succeeds for " +
		"one writer and reports 0 rows to the other. Without a version column the only thing " +
		"serialising those writers is the Redis lock, and a lock that expires during a GC " +
		"pause or is lost in a failover lets both writes land: the second silently overwrites " +
		"the first (lost update).",
	Fix: "ALTER TABLE t_inventory ADD COLUMN version BIGINT UNSIGNED NOT NULL DEFAULT 0, " +
		"ALGORITHM=INSTANT; then bump it in every UPDATE (version = version + 1) and compare " +
		"it in read-modify-write updates; or set `versioned = false` in a [[table]] entry",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runMissingVersionColumn,
}

func runMissingVersionColumn(p *lint.Pass) error {
	vc := p.Policy.VersionColumn()
	for _, t := range wholeTables(p) {
		if t.Column(vc) != nil {
			continue
		}
		guarded := append(lint.CounterColumns(p.Policy, t), lint.StateColumns(p.Policy, t)...)
		if !p.Policy.RequireVersion(t.Name, len(guarded) > 0) {
			continue
		}
		gap := lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: []string{vc}}
		if len(guarded) == 0 {
			p.ReportGap(t, gap, "", fixAddVersion(t, vc), "policy marks %s versioned but it has no %s column", t.Name, vc)
			continue
		}
		why := ""
		if w := p.Policy.VersionWrite(t.Name); w != nil {
			why = fmt.Sprintf("; the write at %s:%d needs it: it %s", w.File, w.Line, w.Why)
			if w.Count > 1 {
				why += fmt.Sprintf(" (%d statements there)", w.Count)
			}
		}
		p.ReportGap(t, gap, "", fixAddVersion(t, vc), "%s has counter or state columns %s but no %s column for compare-and-set writes%s",
			t.Name, list(columnNames(guarded)), vc, why)
	}
	return nil
}
