package migrationrules

import (
	"fmt"
	"path"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// OutOfOrder reports the migration files added since the revision guard
// lint --new-from-rev names whose version is not above every version their
// folder already had there.
var OutOfOrder = &lint.Rule{
	Code:    "GM008",
	Name:    "out-of-order",
	Summary: "with --new-from-rev: a migration added since the revision whose version is not above every version its folder had there",
	Doc: "golang-migrate applies the files above a database's current version, in order, and " +
		"never looks below it. A branch that adds 000005_x.up.sql while main adds and deploys " +
		"000006_y.up.sql merges cleanly, and every database already at version 6 silently " +
		"never runs 000005: its column, index or guard is missing in production while fresh " +
		"databases (CI, a new developer) have it. With --new-from-rev REV, a migration file " +
		"whose version its folder did not hold at REV is new, and it must be numbered above " +
		"the highest version the folder held there. Without --new-from-rev there is no " +
		"earlier state to compare with and the rule reports nothing. Two up files of one " +
		"version in a folder are refused before any rule runs (exit 2), by lint, plan and " +
		"migrate alike.",
	Fix:      "renumber the new migration (its .up.sql and .down.sql) above the folder's newest version, so that it runs next on every database",
	Kind:     lint.KindMigration,
	Severity: policy.SevError,
	Run:      runOutOfOrder,
}

func runOutOfOrder(p *lint.Pass) error {
	// newest is the highest version each folder holds now: a renumbered
	// file must go above the files of the merge too.
	newest := map[string]uint64{}
	for _, m := range p.Migrations {
		newest[m.Dir()] = max(newest[m.Dir()], m.Version)
	}
	renumbered := map[string]uint64{}
	for _, m := range p.Migrations {
		before := m.Before
		if before == nil || before.Has(m.Version) {
			continue
		}
		top, ok := before.Newest()
		if !ok || m.Version > top.Version {
			continue
		}
		dir := m.Dir()
		renumbered[dir]++
		next := max(newest[dir], top.Version) + renumbered[dir]
		name := path.Base(m.File)
		msg := fmt.Sprintf("migration version %d is new since %s but not above version %d (%s), the highest its folder had there: golang-migrate never applies it on a database already at version %d",
			m.Version, before.Rev, top.Version, top.File, top.Version)
		fix := fmt.Sprintf("renumber it above version %d so that it runs next everywhere: %s, and its .down.sql likewise", max(newest[dir], top.Version), renamed(name, next))
		if len(m.Statements) > 0 {
			p.ReportStatementFix(m.Statements[0], "", "", fix, "%s", msg)
			continue
		}
		p.Report(lint.Finding{File: m.File, Line: 1, Column: 1, EndLine: 1, Message: msg, Fix: fix})
	}
	return nil
}

// renamed is migration file name with version v in place of its own,
// written with as many digits as the name had (000005_x.up.sql with 7 is
// 000007_x.up.sql).
func renamed(name string, v uint64) string {
	digits := len(name) - len(strings.TrimLeft(name, "0123456789"))
	return fmt.Sprintf("%0*d%s", digits, v, name[digits:])
}
