package migrationrules

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
			d, ok := onlineDDLOf(st.Node)
			if !ok {
				continue
			}
			// ALGORITHM=INSTANT only changes metadata and MySQL accepts no LOCK
			// level but DEFAULT with it.
			noAlg := d.alg == sqlparse.AlgorithmTypeDefault
			noLock := d.lock == sqlparse.LockTypeDefault && d.alg != sqlparse.AlgorithmTypeInstant
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
			sep, clause := d.advice(noAlg, noLock)
			p.Report(lint.Finding{
				File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine,
				Table: lint.TableAsWritten(d.table), SQL: lint.Compact(st.SQL),
				Message: fmt.Sprintf("%s %s without an explicit %s: the server may silently copy the table and block writes instead of refusing",
					d.what, lint.TableAsWritten(d.table), missing),
				Fix: fmt.Sprintf("end the statement with %s%s so the server refuses instead of locking: %s%s%s", sep, clause, lint.Compact(st.SQL), sep, clause),
			})
		}
	}
	return nil
}

// onlineDDL is what GM002 needs of a statement that may copy a table: its
// kind, its table and the ALGORITHM and LOCK it asked for. It is a value,
// read once per statement, so that judging it allocates nothing.
type onlineDDL struct {
	what  string
	table *sqlparse.TableName
	alg   sqlparse.AlgorithmType
	lock  sqlparse.LockType
	// onlyAddColumns is set for an ALTER TABLE that adds columns and
	// nothing else, which ALGORITHM=INSTANT can do.
	onlyAddColumns bool
}

// onlineDDLOf reads an ALTER TABLE, CREATE INDEX or DROP INDEX; any other
// statement is not GM002's and reports false.
func onlineDDLOf(node sqlparse.StmtNode) (onlineDDL, bool) {
	d := onlineDDL{alg: sqlparse.AlgorithmTypeDefault, lock: sqlparse.LockTypeDefault}
	switch n := node.(type) {
	case *sqlparse.AlterTableStmt:
		d.what, d.table = "ALTER TABLE", n.Table
		d.onlyAddColumns = true
		for _, sp := range n.Specs {
			switch sp.Tp {
			case sqlparse.AlterTableAddColumns, sqlparse.AlterTableAlgorithm, sqlparse.AlterTableLock:
			default:
				d.onlyAddColumns = false
			}
			switch sp.Tp {
			case sqlparse.AlterTableAlgorithm:
				d.alg = sp.Algorithm
			case sqlparse.AlterTableLock:
				d.lock = sp.LockType
			}
		}
	case *sqlparse.CreateIndexStmt:
		d.what, d.table = "CREATE INDEX", n.Table
		if n.LockAlg != nil {
			d.alg, d.lock = n.LockAlg.AlgorithmTp, n.LockAlg.LockTp
		}
	case *sqlparse.DropIndexStmt:
		d.what, d.table = "DROP INDEX", n.Table
		if n.LockAlg != nil {
			d.alg, d.lock = n.LockAlg.AlgorithmTp, n.LockAlg.LockTp
		}
	default:
		return d, false
	}
	return d, true
}

// advice is the clause to end the statement with, and the separator that
// goes before it: INSTANT for a plain ADD COLUMN (the server refuses when
// it cannot), INPLACE without locks otherwise. An ALTER TABLE separates
// its clauses with commas, CREATE and DROP INDEX with spaces.
func (d onlineDDL) advice(noAlg, noLock bool) (sep, clause string) {
	var parts []string
	switch {
	case noAlg && d.onlyAddColumns:
		parts = append(parts, "ALGORITHM=INSTANT")
	case noAlg:
		parts = append(parts, "ALGORITHM=INPLACE")
	}
	if noLock && !(noAlg && d.onlyAddColumns) {
		parts = append(parts, "LOCK=NONE")
	}
	clause = strings.Join(parts, ", ")
	sep = ", "
	if d.what != "ALTER TABLE" {
		sep = " "
		clause = strings.ReplaceAll(clause, ", ", " ")
	}
	return sep, clause
}
