package rules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// AlterWithoutAlgorithm reports ALTER TABLE and CREATE/DROP INDEX statements
// that leave the algorithm or the lock level to the server.
var AlterWithoutAlgorithm = &lint.Rule{
	Code:    "GM002",
	Name:    "alter-without-algorithm",
	Summary: "ALTER TABLE or CREATE/DROP INDEX without explicit ALGORITHM= and LOCK=",
	Doc: "Without an ALGORITHM and LOCK clause the server picks the cheapest algorithm it " +
		"supports, and silently falls back to a table copy that blocks every write when the " +
		"change cannot be done in place. With ALGORITHM=INPLACE, LOCK=NONE (or " +
		"ALGORITHM=INSTANT) the server refuses the statement instead, and the migration " +
		"fails fast in CI rather than stalling checkout in production. ALGORITHM=DEFAULT and " +
		"LOCK=DEFAULT say nothing and count as missing.",
	Fix: "ALTER TABLE t_payment ADD UNIQUE KEY uk_pay_no (pay_no), ALGORITHM=INPLACE, LOCK=NONE; " +
		"ALTER TABLE t ADD COLUMN c INT, ALGORITHM=INSTANT (INSTANT needs no LOCK); " +
		"CREATE INDEX ix ON t (c) ALGORITHM=INPLACE LOCK=NONE",
	Kind:     lint.KindMigration,
	Severity: policy.SevWarning,
	Run:      runAlterWithoutAlgorithm,
}

func runAlterWithoutAlgorithm(p *lint.Pass) error {
	for _, m := range p.Migrations {
		for _, st := range m.Statements {
			var what string
			var table *sqlparse.TableName
			alg, lock := sqlparse.AlgorithmTypeDefault, sqlparse.LockTypeDefault
			onlyAddColumns := false
			switch n := st.Node.(type) {
			case *sqlparse.AlterTableStmt:
				what, table = "ALTER TABLE", n.Table
				onlyAddColumns = true
				for _, sp := range n.Specs {
					switch sp.Tp {
					case sqlparse.AlterTableAddColumns, sqlparse.AlterTableAlgorithm, sqlparse.AlterTableLock:
					default:
						onlyAddColumns = false
					}
					switch sp.Tp {
					case sqlparse.AlterTableAlgorithm:
						alg = sp.Algorithm
					case sqlparse.AlterTableLock:
						lock = sp.LockType
					}
				}
			case *sqlparse.CreateIndexStmt:
				what, table = "CREATE INDEX", n.Table
				if n.LockAlg != nil {
					alg, lock = n.LockAlg.AlgorithmTp, n.LockAlg.LockTp
				}
			case *sqlparse.DropIndexStmt:
				what, table = "DROP INDEX", n.Table
				if n.LockAlg != nil {
					alg, lock = n.LockAlg.AlgorithmTp, n.LockAlg.LockTp
				}
			default:
				continue
			}
			// ALGORITHM=INSTANT only changes metadata and MySQL accepts no LOCK
			// level but DEFAULT with it.
			noAlg := alg == sqlparse.AlgorithmTypeDefault
			noLock := lock == sqlparse.LockTypeDefault && alg != sqlparse.AlgorithmTypeInstant
			var missing string
			switch {
			case noAlg && noLock:
				missing = "ALGORITHM= and LOCK="
			case noAlg:
				missing = "ALGORITHM="
			case noLock:
				missing = "LOCK="
			default:
				continue
			}
			// Advice for this statement: INSTANT for a plain ADD COLUMN (the
			// server refuses when it cannot), INPLACE without locks otherwise.
			var parts []string
			switch {
			case noAlg && onlyAddColumns:
				parts = append(parts, "ALGORITHM=INSTANT")
			case noAlg:
				parts = append(parts, "ALGORITHM=INPLACE")
			}
			if noLock && !(noAlg && onlyAddColumns) {
				parts = append(parts, "LOCK=NONE")
			}
			clause := strings.Join(parts, ", ")
			sep := ", "
			if what != "ALTER TABLE" {
				sep = " "
				clause = strings.ReplaceAll(clause, ", ", " ")
			}
			p.Report(lint.Finding{
				File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine,
				Table: displayName(table), SQL: lint.Compact(st.SQL),
				Message: fmt.Sprintf("%s %s without an explicit %s: the server may silently copy the table and block writes instead of refusing",
					what, displayName(table), missing),
				Fix: fmt.Sprintf("end the statement with %s%s so the server refuses instead of locking: %s%s%s", sep, clause, lint.Compact(st.SQL), sep, clause),
			})
		}
	}
	return nil
}
