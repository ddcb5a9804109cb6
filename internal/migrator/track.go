package migrator

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// planned is a guard at its place in the run, with the reason preflight
// cannot check it there (empty when it can).
type planned struct {
	guard *Guard
	skip  string
	// live is the name of the live table holding the rows (after renames).
	live string
}

// tracker follows the statements of a run in order: which tables and
// columns they create, rename or fill, and which guards they add and drop.
type tracker struct {
	db string
	// created: tables created (or dropped) earlier in the run, by where.
	created map[string]string
	// changed: tables whose rows an earlier statement of the run changes.
	changed map[string]string
	// newCols: columns added or renamed earlier in the run, per table.
	newCols map[string]map[string]string
	// liveName: the live table holding the rows of a table renamed in the run.
	liveName map[string]string

	planned  []planned
	expected []*Guard
}

// analyze follows stmts and returns the guards in statement order (for
// preflight) and the guards expected to exist once all of them ran (for
// verification). Tables of databases other than db are left out.
func analyze(db string, stmts []Stmt) ([]planned, []*Guard) {
	t := &tracker{
		db:       db,
		created:  map[string]string{},
		changed:  map[string]string{},
		newCols:  map[string]map[string]string{},
		liveName: map[string]string{},
	}
	for i := range stmts {
		t.statement(&stmts[i])
	}
	return t.planned, t.expected
}

func where(s *Stmt) string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// table returns the key (lower-case name) of a table of the run's database.
func (t *tracker) table(tn *sqlparse.TableName) (string, bool) {
	if tn == nil || tn.Name.O == "" {
		return "", false
	}
	if tn.Schema.O != "" && !strings.EqualFold(tn.Schema.O, t.db) {
		return "", false
	}
	return strings.ToLower(tn.Name.O), true
}

// add records a guard: planned at this point, expected at the end.
func (t *tracker) add(s *Stmt, key string, g *Guard) {
	t.plan(s, key, g)
	t.expected = append(t.expected, g)
}

// plan records a guard preflight probes at this point; add expects it at
// the end too.
func (t *tracker) plan(s *Stmt, key string, g *Guard) {
	g.File, g.Line, g.Column = s.File, s.Line, s.Col
	if g.probed() {
		live := key
		if l, ok := t.liveName[key]; ok {
			live = l
		}
		t.planned = append(t.planned, planned{guard: g, skip: t.skipReason(key, g.probeColumns()), live: live})
	}
}

func (t *tracker) skipReason(key string, cols []string) string {
	// Rows written after the table was created are rows all the same.
	if w, ok := t.changed[key]; ok {
		return "rows are changed by " + w + " before it in this run: the result cannot be predicted"
	}
	if w, ok := t.created[key]; ok {
		return "the table is created or replaced by " + w + " in this run: no existing rows"
	}
	for _, c := range cols {
		if w, ok := t.newCols[key][c]; ok {
			return "column " + c + " is added or renamed by " + w + " in this run"
		}
	}
	return ""
}

// cancel forgets the expected guards of table key that match.
func (t *tracker) cancel(key string, match func(g *Guard) bool) {
	kept := t.expected[:0]
	for _, g := range t.expected {
		if strings.EqualFold(g.Table, key) && match(g) {
			continue
		}
		kept = append(kept, g)
	}
	t.expected = kept
}

func (t *tracker) statement(s *Stmt) {
	if s.Program != nil {
		t.program(s)
		return
	}
	switch n := s.Node.(type) {
	case *sqlparse.CreateTableStmt:
		t.createTable(s, n)
	case *sqlparse.AlterTableStmt:
		t.alterTable(s, n)
	case *sqlparse.CreateIndexStmt:
		key, ok := t.table(n.Table)
		if ok && n.KeyType == sqlparse.IndexKeyTypeUnique {
			t.add(s, key, uniqueGuard(n.Table.Name.O, n.IndexName, n.IndexPartSpecifications))
		}
	case *sqlparse.DropIndexStmt:
		if key, ok := t.table(n.Table); ok {
			t.cancel(key, namedIndex(n.IndexName))
		}
	case *sqlparse.DropTableStmt:
		for _, tn := range n.Tables {
			if key, ok := t.table(tn); ok {
				t.drop(s, key)
			}
		}
	case *sqlparse.RenameTableStmt:
		for _, tt := range n.TableToTables {
			from, ok1 := t.table(tt.OldTable)
			to, ok2 := t.table(tt.NewTable)
			if ok1 && ok2 {
				t.rename(from, to, tt.NewTable.Name.O)
			}
		}
	case *sqlparse.TruncateTableStmt:
		t.rowsChanged(s, n.Table)
	case *sqlparse.InsertStmt:
		t.rowsChangedIn(s, n.Table)
	case *sqlparse.UpdateStmt:
		t.rowsChangedIn(s, n.TableRefs)
	case *sqlparse.DeleteStmt:
		t.rowsChangedIn(s, n.TableRefs)
		if n.Tables != nil {
			for _, tn := range n.Tables.Tables {
				t.rowsChanged(s, tn)
			}
		}
	case *sqlparse.LoadDataStmt:
		t.rowsChanged(s, n.Table)
	}
}

func (t *tracker) program(s *Stmt) {
	p := s.Program
	if p.Kind != "TRIGGER" || (p.Schema != "" && !strings.EqualFold(p.Schema, t.db)) {
		return
	}
	switch p.Verb {
	case "CREATE":
		if p.TableSchema != "" && !strings.EqualFold(p.TableSchema, t.db) {
			return
		}
		t.add(s, strings.ToLower(p.Table), &Guard{Kind: KindTrigger, Table: p.Table, Name: p.Name,
			Expr: p.Timing + " " + p.Event, timing: p.Timing, event: p.Event})
	case "DROP":
		kept := t.expected[:0]
		for _, g := range t.expected {
			if g.Kind == KindTrigger && strings.EqualFold(g.Name, p.Name) {
				continue
			}
			kept = append(kept, g)
		}
		t.expected = kept
	}
}

func (t *tracker) drop(s *Stmt, key string) {
	t.cancel(key, func(*Guard) bool { return true })
	delete(t.liveName, key)
	delete(t.changed, key)
	delete(t.newCols, key)
	t.created[key] = where(s)
}

func (t *tracker) rename(from, to, display string) {
	live := from
	if l, ok := t.liveName[from]; ok {
		live = l
	}
	// The guards move to the new name; copies, so that the probes keep
	// the name their statement used.
	for i, g := range t.expected {
		if strings.EqualFold(g.Table, from) {
			moved := *g
			moved.Table = display
			t.expected[i] = &moved
		}
	}
	for _, m := range []map[string]string{t.created, t.changed} {
		if w, ok := m[from]; ok {
			m[to] = w
			delete(m, from)
		}
	}
	if cols, ok := t.newCols[from]; ok {
		t.newCols[to] = cols
		delete(t.newCols, from)
	}
	delete(t.liveName, from)
	t.liveName[to] = live
}

func (t *tracker) rowsChanged(s *Stmt, tn *sqlparse.TableName) {
	if key, ok := t.table(tn); ok {
		if _, seen := t.changed[key]; !seen {
			t.changed[key] = where(s)
		}
	}
}

// rowsChangedIn marks every table named in the target clause of a DML statement.
func (t *tracker) rowsChangedIn(s *Stmt, clause *sqlparse.TableRefsClause) {
	if clause == nil {
		return
	}
	var c tableCollector
	clause.Accept(&c)
	for _, tn := range c.tables {
		t.rowsChanged(s, tn)
	}
}

func (t *tracker) addedColumn(s *Stmt, key, col string) {
	if t.newCols[key] == nil {
		t.newCols[key] = map[string]string{}
	}
	t.newCols[key][strings.ToLower(col)] = where(s)
}

func (t *tracker) createTable(s *Stmt, n *sqlparse.CreateTableStmt) {
	key, ok := t.table(n.Table)
	if !ok || n.TemporaryKeyword != sqlparse.TemporaryNone {
		return
	}
	t.cancel(key, func(*Guard) bool { return true })
	t.created[key] = where(s)
	name := n.Table.Name.O
	for _, col := range n.Cols {
		t.columnOptions(s, key, name, col)
	}
	for _, c := range n.Constraints {
		t.constraint(s, key, name, c)
	}
}

// columnOptions records the CHECK and UNIQUE options of a column definition.
func (t *tracker) columnOptions(s *Stmt, key, table string, col *sqlparse.ColumnDef) {
	for _, o := range col.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionCheck:
			if o.Enforced {
				t.add(s, key, checkGuard(table, o.ConstraintName, o.Expr))
			}
		case sqlparse.ColumnOptionUniqKey:
			t.add(s, key, &Guard{Kind: KindUnique, Table: table, Columns: []string{lower(col.Name.Name.O)},
				Expr: quote(col.Name.Name.O), keys: []keyPart{{column: col.Name.Name.O}}})
		}
	}
}

// constraint records a table constraint: CHECK, UNIQUE or PRIMARY KEY.
func (t *tracker) constraint(s *Stmt, key, table string, c *sqlparse.Constraint) {
	switch c.Tp {
	case sqlparse.ConstraintCheck:
		if c.Enforced {
			t.add(s, key, checkGuard(table, c.Name, c.Expr))
		}
	case sqlparse.ConstraintUniq, sqlparse.ConstraintUniqKey, sqlparse.ConstraintUniqIndex:
		t.add(s, key, uniqueGuard(table, c.Name, c.Keys))
	case sqlparse.ConstraintPrimaryKey:
		g := uniqueGuard(table, "", c.Keys)
		g.Kind = KindPrimary
		t.add(s, key, g)
	}
}

func (t *tracker) alterTable(s *Stmt, n *sqlparse.AlterTableStmt) {
	key, ok := t.table(n.Table)
	if !ok {
		return
	}
	name := n.Table.Name.O
	for _, spec := range n.Specs {
		switch spec.Tp {
		case sqlparse.AlterTableAddConstraint:
			if spec.Constraint != nil {
				t.constraint(s, key, name, spec.Constraint)
			}
		case sqlparse.AlterTableAddColumns:
			for _, col := range spec.NewColumns {
				t.addedColumn(s, key, col.Name.Name.O)
				t.add(s, key, &Guard{Kind: KindColumn, Table: name, Name: col.Name.Name.O,
					Columns: []string{lower(col.Name.Name.O)}, NotNull: declaresNotNull(col)})
				t.columnOptions(s, key, name, col)
			}
		case sqlparse.AlterTableModifyColumn, sqlparse.AlterTableChangeColumn:
			if len(spec.NewColumns) == 0 {
				continue
			}
			col := spec.NewColumns[0]
			old := col.Name.Name.O
			if spec.Tp == sqlparse.AlterTableChangeColumn && spec.OldColumnName != nil {
				old = spec.OldColumnName.Name.O
			}
			newName := col.Name.Name.O
			t.cancel(key, refersTo(old, KindNotNull))
			for _, g := range t.expected {
				if g.Kind == KindColumn && strings.EqualFold(g.Table, key) && strings.EqualFold(g.Name, old) {
					g.Name, g.Columns, g.NotNull = newName, []string{lower(newName)}, declaresNotNull(col)
				}
			}
			if declaresNotNull(col) {
				t.add(s, key, &Guard{Kind: KindNotNull, Table: name, Name: newName, Columns: []string{lower(newName)}, liveColumn: old})
			}
			if col.Tp != nil {
				// Whether the type is narrower is known only against the
				// live column: the probe tells, and drops itself if not.
				nt := sqlparse.TypeOfColumn(col)
				t.plan(s, key, &Guard{Kind: KindFits, Table: name, Name: newName, Columns: []string{lower(newName)},
					Expr: typeName(nt), liveColumn: old, newType: nt})
			}
			if !strings.EqualFold(old, newName) {
				t.cancel(key, func(g *Guard) bool { return g.Kind != KindColumn && refersTo(old)(g) })
				t.addedColumn(s, key, newName)
			}
			t.columnOptions(s, key, name, col)
		case sqlparse.AlterTableDropColumn:
			if spec.OldColumnName != nil {
				t.cancel(key, refersTo(spec.OldColumnName.Name.O))
			}
		case sqlparse.AlterTableRenameColumn:
			if spec.OldColumnName != nil && spec.NewColumnName != nil {
				t.cancel(key, refersTo(spec.OldColumnName.Name.O))
				t.addedColumn(s, key, spec.NewColumnName.Name.O)
			}
		case sqlparse.AlterTableDropIndex:
			t.cancel(key, namedIndex(spec.Name))
		case sqlparse.AlterTableDropPrimaryKey:
			t.cancel(key, func(g *Guard) bool { return g.Kind == KindPrimary })
		case sqlparse.AlterTableDropCheck, sqlparse.AlterTableAlterCheck:
			if spec.Constraint != nil {
				cname := spec.Constraint.Name
				t.cancel(key, func(g *Guard) bool {
					return (g.Kind == KindCheck || g.Kind == KindUnique) && g.Name != "" && strings.EqualFold(g.Name, cname)
				})
			}
		case sqlparse.AlterTableRenameTable:
			if to, ok := t.table(spec.NewTable); ok {
				t.rename(key, to, spec.NewTable.Name.O)
				key, name = to, spec.NewTable.Name.O
			}
		}
	}
}
