package migrationrules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// BlockingDDL reports ALTER TABLE statements that copy the table and block
// writes while they run.
var BlockingDDL = &lint.Rule{
	Code:    "GM003",
	Name:    "blocking-ddl",
	Summary: "ADD CHECK / column type change / rebuild that blocks writes while the table is copied",
	Doc: "Some changes cannot be made in place: adding or enforcing a CHECK validates every " +
		"row and needs ALGORITHM=COPY on MySQL 8.0/8.4 and MariaDB 10.11, and so do changing " +
		"a column's type, converting the character set, changing or re-declaring the engine " +
		"and adding or dropping the primary key. During the copy every INSERT and UPDATE on " +
		"the table waits, for as long as copying all rows takes; on a hot counter table that " +
		"is an outage. The change may still be right, but it belongs in a planned window or " +
		"an online schema change tool.",
	Fix: "run it in its own migration in a quiet window, or with an online schema change tool " +
		"(gh-ost, pt-online-schema-change); `guard audit` shows the table's row count; for a " +
		"CHECK, clean violating rows first so the copy does not fail at the end",
	Kind:     lint.KindMigration,
	Severity: policy.SevWarning,
	Run:      runBlockingDDL,
}

func runBlockingDDL(p *lint.Pass) error {
	// Each statement is judged against the columns as they were; its own
	// changes apply after.
	replay(p, func(s step) func(*schema.Schema) {
		if alter, ok := s.st.Node.(*sqlparse.AlterTableStmt); ok {
			if why := blockingReasons(alter, s); len(why) > 0 {
				p.ReportStatement(s.st, lint.TableAsWritten(alter.Table), "", "ALTER TABLE %s blocks writes while the table is copied: %s",
					lint.TableAsWritten(alter.Table), strings.Join(why, "; "))
			}
		}
		return nil
	})
	return nil
}

// blockingReasons lists what in alter forces a table copy.
func blockingReasons(alter *sqlparse.AlterTableStmt, s step) []string {
	table := lint.TableKey(alter.Table)
	var why []string
	forcedCopy := false
	for _, sp := range alter.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableAddConstraint:
			if sp.Constraint == nil {
				continue
			}
			switch sp.Constraint.Tp {
			case sqlparse.ConstraintCheck:
				if sp.Constraint.Enforced {
					why = append(why, "ADD CHECK validates every row (ALGORITHM=COPY)")
				}
			case sqlparse.ConstraintPrimaryKey:
				why = append(why, "ADD PRIMARY KEY rebuilds the table")
			}
		case sqlparse.AlterTableAlterCheck:
			if sp.Constraint != nil && sp.Constraint.Enforced {
				why = append(why, "ALTER CHECK ... ENFORCED validates every row (ALGORITHM=COPY)")
			}
		case sqlparse.AlterTableDropPrimaryKey:
			why = append(why, "DROP PRIMARY KEY rebuilds the table")
		case sqlparse.AlterTableAddColumns:
			for _, def := range sp.NewColumns {
				if sqlparse.HasEnforcedCheck(def) {
					why = append(why, "ADD COLUMN "+def.Name.Name.O+" with a CHECK validates every row (ALGORITHM=COPY)")
				}
			}
		case sqlparse.AlterTableModifyColumn, sqlparse.AlterTableChangeColumn:
			verb := "MODIFY"
			old := ""
			if len(sp.NewColumns) == 0 {
				continue
			}
			def := sp.NewColumns[0]
			old = def.Name.Name.L
			if sp.Tp == sqlparse.AlterTableChangeColumn {
				verb = "CHANGE"
				if sp.OldColumnName != nil {
					old = sp.OldColumnName.Name.L
				}
			}
			_, _, before, known := s.column(table, old)
			after := typeText(def)
			switch {
			case !known:
				why = append(why, verb+" COLUMN "+def.Name.Name.O+" may change its type (its previous definition is not in the migrations); a type change copies the table")
			case before != after:
				why = append(why, verb+" COLUMN "+def.Name.Name.O+" changes its type from "+before+" to "+after+" (ALGORITHM=COPY)")
			}
			if sqlparse.HasEnforcedCheck(def) {
				why = append(why, verb+" COLUMN "+def.Name.Name.O+" with a CHECK validates every row (ALGORITHM=COPY)")
			}
		case sqlparse.AlterTableAlgorithm:
			forcedCopy = forcedCopy || sp.Algorithm == sqlparse.AlgorithmTypeCopy
		case sqlparse.AlterTableForce:
			why = append(why, "FORCE rebuilds the table")
		case sqlparse.AlterTableOption:
			for _, o := range sp.Options {
				switch {
				case o.Tp == sqlparse.TableOptionEngine:
					why = append(why, "ENGINE="+o.StrValue+" rebuilds the table")
				case o.Tp == sqlparse.TableOptionCharset && o.UintValue == sqlparse.TableOptionCharsetWithConvertTo:
					why = append(why, "CONVERT TO CHARACTER SET "+o.StrValue+" rewrites every row")
				}
			}
		}
	}
	// An explicit COPY is only news when nothing else already needs one.
	if forcedCopy && len(why) == 0 {
		why = append(why, "ALGORITHM=COPY forces a table copy")
	}
	return why
}

// typeText is a column definition's type as the server would show it
// ("int(11)", "bigint(20) UNSIGNED", "varchar(10) CHARACTER SET utf8mb4"),
// lower case, so that INT and INTEGER compare equal.
func typeText(def *sqlparse.ColumnDef) string {
	if def.Tp == nil {
		return ""
	}
	return strings.ToLower(def.Tp.String())
}

// replayedColumn is what GM007 compares of a column before and after a
// MODIFY or CHANGE: its type as written and parsed, and its nullability.
type replayedColumn struct {
	text     string
	typ      sqlparse.ColumnType
	nullable bool
}

// replayColumn is what a column definition says of its column. A column
// of the primary key is NOT NULL whatever a MODIFY of it declares: the
// caller keeps that from the column before.
func replayColumn(def *sqlparse.ColumnDef) replayedColumn {
	rc := replayedColumn{text: typeText(def), typ: sqlparse.TypeOfColumn(def), nullable: true}
	for _, o := range def.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionNotNull, sqlparse.ColumnOptionPrimaryKey:
			rc.nullable = false
		case sqlparse.ColumnOptionNull:
			rc.nullable = true
		}
	}
	return rc
}
