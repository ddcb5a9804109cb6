// Package migrationrules holds the rules of migration files (GM001–GM008):
// what a golang-migrate file does to a running server. lint/rules lists
// them with every other rule.
package migrationrules

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// MultipleDDL reports migration files holding more than one DDL statement.
var MultipleDDL = &lint.Rule{
	Code:    "GM001",
	Name:    "multiple-ddl",
	Summary: "a migration file holds more than one DDL statement",
	Doc: "golang-migrate runs a file as one multi-statement Exec, and MySQL and MariaDB commit " +
		"every DDL statement on its own: when the third ALTER of a file fails, the first two " +
		"stay applied, the version is marked dirty, and neither re-running the file nor its " +
		"down migration is safe. With one DDL statement per file a failure leaves the schema " +
		"exactly at the previous version.",
	Fix:      "split the file: one CREATE/ALTER/DROP per NNN_title.up.sql (and its .down.sql); `guard plan` writes guards that way",
	Kind:     lint.KindMigration,
	Severity: policy.SevWarning,
	Run:      runMultipleDDL,
}

func runMultipleDDL(p *lint.Pass) error {
	for _, m := range p.Migrations {
		var ddl []*lint.Statement
		for _, st := range m.Statements {
			if _, isDDL := st.Node.(sqlparse.DDLNode); isDDL {
				ddl = append(ddl, st)
			}
		}
		if len(ddl) < 2 {
			continue
		}
		p.ReportStatement(ddl[1], "", "", "migration holds %d DDL statements; DDL is not transactional, so a failure after the first leaves it half applied and the version dirty",
			len(ddl))
	}
	return nil
}
