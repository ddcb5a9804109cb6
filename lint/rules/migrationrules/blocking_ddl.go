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
			types = newColumnTypes()
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
			before, known := types.lookup(table, old)
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

// columnTypes replays the migrations of one folder far enough to know each
// column's type before a MODIFY or CHANGE: the schema model keeps only the
// final state and the base type, and a change from DECIMAL(10,2) to
// DECIMAL(12,2) copies the table as surely as one from INT to BIGINT. GM007
// reads the parsed type and the nullability the replay keeps beside the
// text, to tell a narrowing change from a widening one.
type columnTypes struct {
	// tables maps a lower-case table name to its lower-case column names and what is known of them.
	tables map[string]map[string]replayedColumn
}

// replayedColumn is a column as the statements so far define it.
type replayedColumn struct {
	text     string              // typeText, which GM003 compares
	typ      sqlparse.ColumnType // the parsed type, which GM007 compares
	nullable bool
	// primary says the column is part of the primary key, which keeps it
	// NOT NULL whatever a later MODIFY declares.
	primary bool
}

func newColumnTypes() *columnTypes {
	return &columnTypes{tables: map[string]map[string]replayedColumn{}}
}

// replayColumn is what a column definition says of its column.
func replayColumn(def *sqlparse.ColumnDef) replayedColumn {
	rc := replayedColumn{text: typeText(def), typ: sqlparse.TypeOfColumn(def), nullable: true}
	for _, o := range def.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionNotNull:
			rc.nullable = false
		case sqlparse.ColumnOptionNull:
			rc.nullable = true
		case sqlparse.ColumnOptionPrimaryKey:
			rc.nullable, rc.primary = false, true
		}
	}
	return rc
}

func (c *columnTypes) lookup(table, col string) (string, bool) {
	rc, ok := c.column(table, col)
	return rc.text, ok
}

// column returns what the replay knows of column col of table.
func (c *columnTypes) column(table, col string) (replayedColumn, bool) {
	cols, ok := c.tables[table]
	if !ok {
		return replayedColumn{}, false
	}
	rc, ok := cols[col]
	return rc, ok
}

// known reports whether the migrations so far define table.
func (c *columnTypes) known(table string) bool {
	_, ok := c.tables[table]
	return ok
}

// apply records the column changes of one statement.
func (c *columnTypes) apply(n sqlparse.StmtNode) {
	switch n := n.(type) {
	case *sqlparse.CreateTableStmt:
		name := lint.TableKey(n.Table)
		if n.IfNotExists && c.tables[name] != nil {
			return
		}
		cols := map[string]replayedColumn{}
		if n.ReferTable != nil {
			for k, v := range c.tables[lint.TableKey(n.ReferTable)] {
				cols[k] = v
			}
		}
		for _, def := range n.Cols {
			cols[def.Name.Name.L] = replayColumn(def)
		}
		for _, cons := range n.Constraints {
			if cons.Tp == sqlparse.ConstraintPrimaryKey {
				markPrimary(cols, cons)
			}
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

// markPrimary records that the columns of a PRIMARY KEY are NOT NULL.
func markPrimary(cols map[string]replayedColumn, cons *sqlparse.Constraint) {
	for _, k := range cons.Keys {
		if k.Column == nil {
			continue
		}
		if rc, ok := cols[k.Column.Name.L]; ok {
			rc.nullable, rc.primary = false, true
			cols[k.Column.Name.L] = rc
		}
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
	// changed keeps a column of the primary key NOT NULL through a MODIFY
	// or CHANGE that does not say so, as the server does.
	changed := func(old string, def *sqlparse.ColumnDef) {
		rc := replayColumn(def)
		if prev, ok := cols[old]; ok && prev.primary {
			rc.nullable, rc.primary = false, true
		}
		cols[def.Name.Name.L] = rc
	}
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableAddColumns:
			for _, def := range sp.NewColumns {
				cols[def.Name.Name.L] = replayColumn(def)
			}
		case sqlparse.AlterTableModifyColumn:
			for _, def := range sp.NewColumns {
				changed(def.Name.Name.L, def)
			}
		case sqlparse.AlterTableChangeColumn:
			for _, def := range sp.NewColumns {
				old := def.Name.Name.L
				if sp.OldColumnName != nil {
					old = sp.OldColumnName.Name.L
				}
				changed(old, def)
				if old != def.Name.Name.L {
					delete(cols, old)
				}
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
		case sqlparse.AlterTableAddConstraint:
			if sp.Constraint != nil && sp.Constraint.Tp == sqlparse.ConstraintPrimaryKey {
				markPrimary(cols, sp.Constraint)
			}
		case sqlparse.AlterTableDropPrimaryKey:
			// The columns stay NOT NULL; a later MODIFY may now make them nullable.
			for k, rc := range cols {
				rc.primary = false
				cols[k] = rc
			}
		case sqlparse.AlterTableRenameTable:
			if sp.NewTable != nil {
				c.rename(name, lint.TableKey(sp.NewTable))
				name = lint.TableKey(sp.NewTable)
			}
		}
	}
}
