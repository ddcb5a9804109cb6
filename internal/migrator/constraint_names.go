package migrator

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// MissingNameError is returned when pending files name a CHECK
// constraint, index or foreign key that their table will not have when
// the statement runs: the server would refuse the statement (error 1091)
// after the file's earlier statements ran, and leave the version dirty.
// The down files guard plan writes name the constraints their up files
// added, and a constraint renamed since (by an older guard's
// pt-online-schema-change run, by hand) is no longer found under that
// name. Nothing was applied.
type MissingNameError struct {
	Missing []MissingName
}

// MissingName is one statement naming what its table lacks.
type MissingName struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Table  string `json:"table"`
	// Op is what the statement does with the name: DROP CONSTRAINT, ALTER
	// CHECK, DROP INDEX, RENAME INDEX, DROP FOREIGN KEY, DROP PRIMARY KEY.
	Op   string `json:"op"`
	Name string `json:"name"`
	// Kind is what the name should be: "CHECK constraint", "index",
	// "foreign key", or "constraint" (any of them, for DROP CONSTRAINT).
	Kind string `json:"kind"`
	// Has are the names of that kind the table has when the statement
	// runs, each with its kind for a constraint.
	Has []string `json:"has"`
}

// String prints FILE:LINE:COL: OP NAME: table T has no KIND named NAME (it has: …).
func (n MissingName) String() string {
	has := "it has none"
	if len(n.Has) > 0 {
		has = "it has: " + strings.Join(n.Has, ", ")
	}
	return fmt.Sprintf("%s:%d:%d: %s %s: table %s has no %s named %s (%s)", n.File, n.Line, n.Column, n.Op, n.Name, n.Table, n.Kind, n.Name, has)
}

// Error lists every statement, one per line.
func (e *MissingNameError) Error() string {
	lines := make([]string, len(e.Missing))
	for i, n := range e.Missing {
		lines[i] = n.String()
	}
	return fmt.Sprintf("%d statement(s) of the pending migrations name a constraint or index their table will not have "+
		"(nothing was applied; the server would refuse them part-way through the file and leave the version dirty):\n%s",
		len(e.Missing), strings.Join(lines, "\n"))
}

// tableNames are the names of a table's CHECK constraints, indexes and
// foreign keys as a run goes, by lower-case name.
type tableNames struct {
	display string
	checks  map[string]string
	indexes map[string]string
	fks     map[string]string
	// unknown: a statement gave the table names that cannot be told (an
	// unnamed index or CHECK, CREATE TABLE … LIKE), or the account cannot
	// read them: nothing is refused on it from there.
	unknown bool
}

func newTableNames(display string) *tableNames {
	return &tableNames{display: display, checks: map[string]string{}, indexes: map[string]string{}, fks: map[string]string{}}
}

// nameTracker follows the statements of a run in order.
type nameTracker struct {
	db     string
	tables map[string]*tableNames
	// lost is set after a statement whose effect on names cannot be told
	// (CALL, EXECUTE): nothing is refused from there.
	lost    bool
	missing []MissingName
}

// liveForeignKeys reads the foreign key names of the tables of database,
// by table; schema.Schema does not hold them.
func (m *Migrator) liveForeignKeys(ctx context.Context) (map[string][]string, error) {
	rows, err := m.db.QueryContext(ctx, "SELECT TABLE_NAME, CONSTRAINT_NAME FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND CONSTRAINT_TYPE = 'FOREIGN KEY'", m.database)
	if err != nil {
		return nil, fmt.Errorf("read foreign keys: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var table, name string
		if err := rows.Scan(&table, &name); err != nil {
			return nil, fmt.Errorf("read foreign keys: %w", err)
		}
		out[strings.ToLower(table)] = append(out[strings.ToLower(table)], name)
	}
	return out, rows.Err()
}

// checkNames refuses the statements of stmts that name what their table
// will not have, following them from the live schema. It returns a
// *MissingNameError, nil when every name is there, or the error of
// reading the foreign keys.
func (m *Migrator) checkNames(ctx context.Context, live *schema.Schema, stmts []Stmt) error {
	fks, err := m.liveForeignKeys(ctx)
	if err != nil {
		return err
	}
	if missing := missingNames(m.database, live, fks, stmts); len(missing) > 0 {
		return &MissingNameError{Missing: missing}
	}
	return nil
}

// missingNames follows stmts from live (and its foreign keys, by
// lower-case table) and returns the statements naming a CHECK constraint,
// index or foreign key their table does not have when they run. Where
// the names cannot be told, nothing is reported: a refusal must be sure.
func missingNames(database string, live *schema.Schema, fks map[string][]string, stmts []Stmt) []MissingName {
	nt := &nameTracker{db: database, tables: map[string]*tableNames{}}
	if live != nil {
		for _, t := range live.Tables {
			tn := newTableNames(t.Name)
			tn.unknown = t.ChecksUnknown || t.ColumnsPartial
			for _, c := range t.Checks {
				tn.checks[strings.ToLower(c.Name)] = c.Name
			}
			for _, ix := range t.Indexes {
				tn.indexes[strings.ToLower(ix.Name)] = ix.Name
			}
			for _, fk := range fks[strings.ToLower(t.Name)] {
				tn.fks[strings.ToLower(fk)] = fk
			}
			nt.tables[strings.ToLower(t.Name)] = tn
		}
	}
	for i := range stmts {
		if nt.lost {
			break
		}
		nt.statement(&stmts[i])
	}
	return nt.missing
}

// key is the lower-case name of a table of the run's database.
func (nt *nameTracker) key(tn *sqlparse.TableName) (string, bool) {
	if tn == nil || tn.Name.O == "" || (tn.Schema.O != "" && !strings.EqualFold(tn.Schema.O, nt.db)) {
		return "", false
	}
	return strings.ToLower(tn.Name.O), true
}

func (nt *nameTracker) statement(s *Stmt) {
	switch n := s.Node.(type) {
	case *sqlparse.CreateTableStmt:
		key, ok := nt.key(n.Table)
		if !ok || n.TemporaryKeyword != sqlparse.TemporaryNone || (n.IfNotExists && nt.tables[key] != nil) {
			return
		}
		tn := newTableNames(n.Table.Name.O)
		tn.unknown = n.ReferTable != nil || n.Select != nil
		for _, col := range n.Cols {
			tn.columnOptions(col)
		}
		for _, c := range n.Constraints {
			tn.constraint(c)
		}
		nt.tables[key] = tn
	case *sqlparse.CreateIndexStmt:
		if key, ok := nt.key(n.Table); ok && nt.tables[key] != nil {
			nt.tables[key].indexes[strings.ToLower(n.IndexName)] = n.IndexName
		}
	case *sqlparse.DropIndexStmt:
		if key, ok := nt.key(n.Table); ok && !n.IfExists {
			nt.need(s, key, "DROP INDEX", n.IndexName, kindIndex)
			if tn := nt.tables[key]; tn != nil {
				delete(tn.indexes, strings.ToLower(n.IndexName))
			}
		}
	case *sqlparse.AlterTableStmt:
		nt.alterTable(s, n)
	case *sqlparse.DropTableStmt:
		for _, t := range n.Tables {
			if key, ok := nt.key(t); ok {
				delete(nt.tables, key)
			}
		}
	case *sqlparse.RenameTableStmt:
		for _, tt := range n.TableToTables {
			from, ok1 := nt.key(tt.OldTable)
			to, ok2 := nt.key(tt.NewTable)
			nt.rename(from, to, tt.NewTable, ok1 && ok2)
		}
	case *sqlparse.CallStmt, *sqlparse.ExecuteStmt:
		nt.lost = true
	}
}

// rename moves the names of table from to to; a rename out of the
// database (ok false) forgets them.
func (nt *nameTracker) rename(from, to string, newName *sqlparse.TableName, ok bool) {
	tn := nt.tables[from]
	delete(nt.tables, from)
	if tn != nil && ok {
		tn.display = newName.Name.O
		nt.tables[to] = tn
	}
}

// What a name should be, for MissingName.Kind.
const (
	kindCheck      = "CHECK constraint"
	kindIndex      = "index"
	kindForeignKey = "foreign key"
	kindConstraint = "constraint"
)

// need records s as missing when table key, known, has no name of kind.
func (nt *nameTracker) need(s *Stmt, key, op, name, kind string) {
	tn := nt.tables[key]
	if tn == nil || tn.unknown || name == "" {
		return
	}
	l := strings.ToLower(name)
	var has []string
	found := false
	add := func(m map[string]string, label string) {
		_, ok := m[l]
		found = found || ok
		for _, v := range m {
			has = append(has, label+v)
		}
	}
	switch kind {
	case kindCheck:
		add(tn.checks, "")
	case kindIndex:
		add(tn.indexes, "")
	case kindForeignKey:
		add(tn.fks, "")
	default:
		// DROP CONSTRAINT drops a CHECK, a UNIQUE (MariaDB, MySQL 8.0.19)
		// or a foreign key by its name.
		add(tn.checks, "CHECK ")
		add(tn.indexes, "index ")
		add(tn.fks, "foreign key ")
	}
	if found {
		return
	}
	sort.Strings(has)
	nt.missing = append(nt.missing, MissingName{File: s.File, Line: s.Line, Column: s.Col, Table: tn.display, Op: op, Name: name, Kind: kind, Has: has})
}

func (nt *nameTracker) alterTable(s *Stmt, n *sqlparse.AlterTableStmt) {
	key, ok := nt.key(n.Table)
	if !ok {
		return
	}
	for _, spec := range n.Specs {
		tn := nt.tables[key]
		switch spec.Tp {
		case sqlparse.AlterTableAddConstraint:
			if tn != nil && spec.Constraint != nil {
				tn.constraint(spec.Constraint)
			}
		case sqlparse.AlterTableAddColumns, sqlparse.AlterTableModifyColumn, sqlparse.AlterTableChangeColumn:
			for _, col := range spec.NewColumns {
				if tn != nil {
					tn.columnOptions(col)
				}
			}
		case sqlparse.AlterTableDropCheck:
			if spec.Constraint != nil {
				// The parser reads DROP CHECK and DROP CONSTRAINT alike.
				nt.need(s, key, "DROP CONSTRAINT", spec.Constraint.Name, kindConstraint)
				if tn != nil {
					l := strings.ToLower(spec.Constraint.Name)
					delete(tn.checks, l)
					delete(tn.indexes, l)
					delete(tn.fks, l)
				}
			}
		case sqlparse.AlterTableAlterCheck:
			if spec.Constraint != nil {
				nt.need(s, key, "ALTER CHECK", spec.Constraint.Name, kindCheck)
			}
		case sqlparse.AlterTableDropIndex:
			if !spec.IfExists {
				nt.need(s, key, "DROP INDEX", spec.Name, kindIndex)
			}
			if tn != nil {
				delete(tn.indexes, strings.ToLower(spec.Name))
			}
		case sqlparse.AlterTableDropPrimaryKey:
			nt.need(s, key, "DROP PRIMARY KEY", "PRIMARY", kindIndex)
			if tn != nil {
				delete(tn.indexes, "primary")
			}
		case sqlparse.AlterTableDropForeignKey:
			nt.need(s, key, "DROP FOREIGN KEY", spec.Name, kindForeignKey)
			if tn != nil {
				delete(tn.fks, strings.ToLower(spec.Name))
			}
		case sqlparse.AlterTableRenameIndex:
			nt.need(s, key, "RENAME INDEX", spec.FromKey.O, kindIndex)
			if tn != nil {
				delete(tn.indexes, spec.FromKey.L)
				tn.indexes[spec.ToKey.L] = spec.ToKey.O
			}
		case sqlparse.AlterTableRenameTable:
			to, ok := nt.key(spec.NewTable)
			nt.rename(key, to, spec.NewTable, ok)
			if !ok {
				return
			}
			key = to
		}
	}
}

// constraint records the name a table constraint gives; an unnamed one
// gets a name from the server that cannot be told here.
func (tn *tableNames) constraint(c *sqlparse.Constraint) {
	name := c.Name
	switch c.Tp {
	case sqlparse.ConstraintPrimaryKey:
		tn.indexes["primary"] = "PRIMARY"
		return
	case sqlparse.ConstraintCheck:
		if name == "" {
			tn.unknown = true
			return
		}
		tn.checks[strings.ToLower(name)] = name
		return
	case sqlparse.ConstraintForeignKey:
		if name == "" {
			tn.unknown = true
			return
		}
		tn.fks[strings.ToLower(name)] = name
		// The index it may create takes its name (or an existing index
		// serves it): counted as there, never refused.
		tn.indexes[strings.ToLower(name)] = name
		return
	}
	if name == "" {
		tn.unknown = true
		return
	}
	tn.indexes[strings.ToLower(name)] = name
}

// columnOptions records the names a column definition's options give: a
// PRIMARY KEY; a UNIQUE or CHECK of the column, named by the server.
func (tn *tableNames) columnOptions(col *sqlparse.ColumnDef) {
	for _, o := range col.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionPrimaryKey:
			tn.indexes["primary"] = "PRIMARY"
		case sqlparse.ColumnOptionUniqKey, sqlparse.ColumnOptionCheck, sqlparse.ColumnOptionReference:
			tn.unknown = true
		}
	}
}
