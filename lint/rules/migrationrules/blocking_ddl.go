package migrationrules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
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
	replays := map[string]*columnTypes{}
	for _, m := range p.Migrations {
		dir := m.Dir()
		types := replays[dir]
		if types == nil {
			types = &columnTypes{tables: map[string]map[string]string{}}
			replays[dir] = types
		}
		for _, st := range m.Statements {
			if st.Node == nil {
				continue
			}
			if alter, ok := st.Node.(*sqlparse.AlterTableStmt); ok {
				if why := blockingReasons(alter, types); len(why) > 0 {
					p.ReportStatement(st, lint.TableAsWritten(alter.Table), "", "ALTER TABLE %s blocks writes while the table is copied: %s",
						lint.TableAsWritten(alter.Table), strings.Join(why, "; "))
				}
			}
			// The statement's own changes apply after it has been judged
			// against the columns as they were.
			types.apply(st.Node)
		}
	}
	return nil
}

// blockingReasons lists what in alter forces a table copy.
func blockingReasons(alter *sqlparse.AlterTableStmt, types *columnTypes) []string {
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
				if hasEnforcedCheck(def) {
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
			before, known := types.lookup(table, old)
			after := typeText(def)
			switch {
			case !known:
				why = append(why, verb+" COLUMN "+def.Name.Name.O+" may change its type (its previous definition is not in the migrations); a type change copies the table")
			case before != after:
				why = append(why, verb+" COLUMN "+def.Name.Name.O+" changes its type from "+before+" to "+after+" (ALGORITHM=COPY)")
			}
			if hasEnforcedCheck(def) {
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

// hasEnforcedCheck reports whether a column definition carries an enforced
// column-level CHECK.
func hasEnforcedCheck(def *sqlparse.ColumnDef) bool {
	for _, o := range def.Options {
		if o.Tp == sqlparse.ColumnOptionCheck && o.Enforced {
			return true
		}
	}
	return false
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

// columnTypes replays the migrations of one folder far enough to know each
// column's type before a MODIFY or CHANGE: the schema model keeps only the
// final state and the base type, and a change from DECIMAL(10,2) to
// DECIMAL(12,2) copies the table as surely as one from INT to BIGINT.
type columnTypes struct {
	// tables maps a lower-case table name to its lower-case column names and type texts.
	tables map[string]map[string]string
}

func (c *columnTypes) lookup(table, col string) (string, bool) {
	cols, ok := c.tables[table]
	if !ok {
		return "", false
	}
	t, ok := cols[col]
	return t, ok
}

// apply records the column changes of one statement.
func (c *columnTypes) apply(n sqlparse.StmtNode) {
	switch n := n.(type) {
	case *sqlparse.CreateTableStmt:
		name := lint.TableKey(n.Table)
		if n.IfNotExists && c.tables[name] != nil {
			return
		}
		cols := map[string]string{}
		if n.ReferTable != nil {
			for k, v := range c.tables[lint.TableKey(n.ReferTable)] {
				cols[k] = v
			}
		}
		for _, def := range n.Cols {
			cols[def.Name.Name.L] = typeText(def)
		}
		c.tables[name] = cols
	case *sqlparse.DropTableStmt:
		for _, t := range n.Tables {
			delete(c.tables, lint.TableKey(t))
		}
	case *sqlparse.RenameTableStmt:
		for _, tt := range n.TableToTables {
			c.rename(lint.TableKey(tt.OldTable), lint.TableKey(tt.NewTable))
		}
	case *sqlparse.AlterTableStmt:
		c.alter(n)
	}
}

func (c *columnTypes) rename(from, to string) {
	if cols, ok := c.tables[from]; ok {
		delete(c.tables, from)
		c.tables[to] = cols
	}
}

func (c *columnTypes) alter(n *sqlparse.AlterTableStmt) {
	name := lint.TableKey(n.Table)
	cols := c.tables[name]
	if cols == nil {
		return
	}
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableAddColumns, sqlparse.AlterTableModifyColumn:
			for _, def := range sp.NewColumns {
				cols[def.Name.Name.L] = typeText(def)
			}
		case sqlparse.AlterTableChangeColumn:
			if sp.OldColumnName != nil {
				delete(cols, sp.OldColumnName.Name.L)
			}
			for _, def := range sp.NewColumns {
				cols[def.Name.Name.L] = typeText(def)
			}
		case sqlparse.AlterTableDropColumn:
			if sp.OldColumnName != nil {
				delete(cols, sp.OldColumnName.Name.L)
			}
		case sqlparse.AlterTableRenameColumn:
			if sp.OldColumnName != nil && sp.NewColumnName != nil {
				if t, ok := cols[sp.OldColumnName.Name.L]; ok {
					delete(cols, sp.OldColumnName.Name.L)
					cols[sp.NewColumnName.Name.L] = t
				}
			}
		case sqlparse.AlterTableRenameTable:
			if sp.NewTable != nil {
				c.rename(name, lint.TableKey(sp.NewTable))
				name = lint.TableKey(sp.NewTable)
			}
		}
	}
}
