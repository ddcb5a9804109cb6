package schema

import (
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// alterTable replays ALTER TABLE, one specification after the other, on a
// copy of the table that replaces it only when the statement as a whole
// succeeds, as the server applies an ALTER all or nothing.
func (r *replayer) alterTable(n *sqlparse.AlterTableStmt) {
	name := tableName(n.Table)
	orig := r.s.Table(name)
	if orig == nil {
		r.errorf("alter table %s: unknown table", name)
		return
	}
	t, m := r.copyTable(orig, true)
	r.meta[t] = m
	r.renameTo = ""
	nerr := len(r.errs)
	// The server applies an ALTER as a whole: a check that uses two columns
	// goes when both are dropped by the same statement.
	r.dropping = map[string]bool{}
	for _, spec := range n.Specs {
		if spec != nil && spec.Tp == sqlparse.AlterTableDropColumn && spec.OldColumnName != nil {
			r.dropping[spec.OldColumnName.Name.L] = true
		}
	}
	for _, spec := range n.Specs {
		if spec != nil {
			r.alterSpec(t, spec)
		}
	}
	r.dropping = nil
	delete(r.meta, t)
	if r.renameTo != "" && len(r.errs) == nerr {
		if other := r.s.Table(r.renameTo); other != nil && other != orig {
			r.errorf("alter table %s rename to %s: table already exists", name, r.renameTo)
		}
	}
	if len(r.errs) > nerr {
		return
	}
	*orig = *t
	r.meta[orig] = m
	if r.renameTo != "" {
		r.s.Remove(name)
		orig.Name = r.renameTo
		r.s.Add(orig)
	}
	r.tidy(orig)
}

func (r *replayer) alterSpec(t *Table, spec *sqlparse.AlterTableSpec) {
	switch spec.Tp {
	case sqlparse.AlterTableAddColumns:
		for i, def := range spec.NewColumns {
			pos := spec.Position
			if i > 0 {
				// ADD COLUMN (a INT, b INT) appends each in turn.
				pos = nil
			}
			r.addColumn(t, def, pos, spec.IfNotExists)
		}
		for _, c := range spec.NewConstraints {
			r.addConstraint(t, c)
		}
	case sqlparse.AlterTableAddConstraint:
		r.addConstraint(t, spec.Constraint)
	case sqlparse.AlterTableDropColumn:
		if spec.OldColumnName != nil {
			r.dropColumn(t, spec.OldColumnName.Name.O, spec.IfExists)
		}
	case sqlparse.AlterTableModifyColumn:
		if len(spec.NewColumns) > 0 && spec.NewColumns[0] != nil && spec.NewColumns[0].Name != nil {
			def := spec.NewColumns[0]
			r.changeColumn(t, def.Name.Name.O, def, spec.Position, spec.IfExists)
		}
	case sqlparse.AlterTableChangeColumn:
		if spec.OldColumnName != nil && len(spec.NewColumns) > 0 {
			r.changeColumn(t, spec.OldColumnName.Name.O, spec.NewColumns[0], spec.Position, spec.IfExists)
		}
	case sqlparse.AlterTableRenameColumn:
		if spec.OldColumnName != nil && spec.NewColumnName != nil {
			r.renameColumn(t, spec.OldColumnName.Name.O, spec.NewColumnName.Name.O)
		}
	case sqlparse.AlterTableAlterColumn:
		r.alterColumnDefault(t, spec)
	case sqlparse.AlterTableDropPrimaryKey:
		r.dropIndex(t, "PRIMARY", spec.IfExists)
	case sqlparse.AlterTableDropIndex:
		r.dropIndex(t, spec.Name, spec.IfExists)
	case sqlparse.AlterTableRenameIndex:
		r.renameIndex(t, spec.FromKey.O, spec.ToKey.O)
	case sqlparse.AlterTableDropForeignKey:
		r.dropForeignKey(t, spec.Name, spec.IfExists)
	case sqlparse.AlterTableDropCheck:
		if spec.Constraint != nil {
			r.dropConstraint(t, spec.Constraint.Name, spec.IfExists)
		}
	case sqlparse.AlterTableAlterCheck:
		if spec.Constraint != nil {
			ch := findCheck(t, spec.Constraint.Name)
			if ch == nil {
				r.errorf("alter check %s on %s: unknown check constraint", spec.Constraint.Name, t.Name)
				return
			}
			ch.Enforced = spec.Constraint.Enforced
		}
	case sqlparse.AlterTableOption:
		for _, opt := range spec.Options {
			if opt != nil && opt.Tp == sqlparse.TableOptionEngine {
				t.Engine = canonicalEngine(opt.StrValue)
			}
		}
	case sqlparse.AlterTableRenameTable:
		r.renameTo = tableName(spec.NewTable)
	}
}

// addConstraint replays ADD INDEX/KEY/UNIQUE/PRIMARY KEY/FOREIGN KEY/CHECK.
func (r *replayer) addConstraint(t *Table, c *sqlparse.Constraint) {
	k, ch, ok := r.constraint(t, c)
	if !ok {
		return
	}
	if k != nil {
		r.addKeys(t, []pendingKey{*k})
	}
	if ch != nil {
		r.addChecks(t, []pendingCheck{*ch})
	}
}

// insertAt puts col into t's columns at pos (nil: last). It reports false
// when an AFTER column does not exist.
func (r *replayer) insertAt(t *Table, col *Column, pos *sqlparse.ColumnPosition) bool {
	at := len(t.Columns)
	if pos != nil {
		switch pos.Tp {
		case sqlparse.ColumnPositionFirst:
			at = 0
		case sqlparse.ColumnPositionAfter:
			if pos.RelativeColumn == nil {
				break
			}
			after := pos.RelativeColumn.Name.O
			at = -1
			for i, c := range t.Columns {
				if strings.EqualFold(c.Name, after) {
					at = i + 1
				}
			}
			if at < 0 {
				r.errorf("alter table %s: unknown column %s in AFTER", t.Name, after)
				return false
			}
		}
	}
	t.Columns = append(t.Columns, nil)
	copy(t.Columns[at+1:], t.Columns[at:])
	t.Columns[at] = col
	return true
}

func (r *replayer) addColumn(t *Table, def *sqlparse.ColumnDef, pos *sqlparse.ColumnPosition, ifNotExists bool) {
	col, extra := r.columnFromDef(def)
	if col == nil {
		return
	}
	if t.Column(col.Name) != nil {
		if !ifNotExists {
			r.errorf("add column %s to %s: duplicate column", col.Name, t.Name)
		}
		return
	}
	if !r.insertAt(t, col, pos) {
		return
	}
	r.tableMeta(t).types[col], r.tableMeta(t).declared[col] = extra.typ, extra.text
	r.addKeys(t, extra.keys)
	r.addChecks(t, extra.checks)
}

// dropColumn removes a column, and with it its column CHECK and the table
// checks that use no other column; the column leaves every index, and an
// index left without columns goes. A check that also uses other columns
// makes the server refuse.
func (r *replayer) dropColumn(t *Table, name string, ifExists bool) {
	col := t.Column(name)
	if col == nil {
		if !ifExists {
			r.errorf("drop column %s from %s: unknown column", name, t.Name)
		}
		return
	}
	if len(t.Columns) == 1 {
		r.errorf("drop column %s from %s: cannot drop the only column, drop the table instead", name, t.Name)
		return
	}
	m := r.tableMeta(t)
	var drop []*Check
	for _, c := range t.Checks {
		if m.colCheck[c] == strings.ToLower(col.Name) {
			drop = append(drop, c)
			continue
		}
		e, err := r.parseExpr(c.Expr)
		if err != nil {
			continue
		}
		cols := referencedColumns(e)
		if !containsFold(cols, col.Name) {
			continue
		}
		for _, other := range cols {
			if !strings.EqualFold(other, col.Name) && !r.dropping[strings.ToLower(other)] {
				r.errorf("drop column %s from %s: check constraint %s also uses column %s", col.Name, t.Name, c.Name, other)
				return
			}
		}
		drop = append(drop, c)
	}
	for _, c := range drop {
		r.removeCheck(t, c)
	}
	for i, c := range t.Columns {
		if c == col {
			t.Columns = append(t.Columns[:i:i], t.Columns[i+1:]...)
			break
		}
	}
	delete(m.types, col)
	delete(m.declared, col)
	for _, ix := range append([]*Index(nil), t.Indexes...) {
		lengths := m.lengths[ix]
		var cols []string
		var keep []int
		for i, c := range ix.Columns {
			if strings.EqualFold(c, col.Name) && (i >= len(lengths) || lengths[i] >= 0) {
				continue
			}
			cols = append(cols, c)
			if i < len(lengths) {
				keep = append(keep, lengths[i])
			}
		}
		if len(cols) == len(ix.Columns) {
			continue
		}
		if len(cols) == 0 {
			r.removeIndex(t, ix)
			continue
		}
		ix.Columns = cols
		m.lengths[ix] = keep
	}
}

// changeColumn replays MODIFY (old == new name) and CHANGE: the definition is
// replaced, the column keeps its place unless FIRST/AFTER moves it, and, as
// on MariaDB, its column CHECK goes unless the new definition repeats one.
func (r *replayer) changeColumn(t *Table, old string, def *sqlparse.ColumnDef, pos *sqlparse.ColumnPosition, ifExists bool) {
	cur := t.Column(old)
	if cur == nil {
		if !ifExists {
			r.errorf("change column %s in %s: unknown column", old, t.Name)
		}
		return
	}
	col, extra := r.columnFromDef(def)
	if col == nil {
		return
	}
	if other := t.Column(col.Name); other != nil && other != cur {
		r.errorf("change column %s in %s: duplicate column %s", old, t.Name, col.Name)
		return
	}
	m := r.tableMeta(t)
	for _, c := range append([]*Check(nil), t.Checks...) {
		if m.colCheck[c] == strings.ToLower(cur.Name) {
			r.removeCheck(t, c)
		}
	}
	if cur.Name != col.Name {
		r.renameInIndexes(t, cur.Name, col.Name)
		r.renameInChecks(t, cur.Name, col.Name)
	}
	idx := 0
	for i, c := range t.Columns {
		if c == cur {
			idx = i
		}
	}
	t.Columns[idx] = col
	delete(m.types, cur)
	delete(m.declared, cur)
	m.types[col], m.declared[col] = extra.typ, extra.text
	if pos != nil && pos.Tp != sqlparse.ColumnPositionNone {
		t.Columns = append(t.Columns[:idx:idx], t.Columns[idx+1:]...)
		if !r.insertAt(t, col, pos) {
			// Put it back where it was rather than lose it.
			t.Columns = append(t.Columns[:idx], append([]*Column{col}, t.Columns[idx:]...)...)
		}
	}
	r.addKeys(t, extra.keys)
	r.addChecks(t, extra.checks)
}

// renameColumn replays RENAME COLUMN: the definition stays, the new name
// replaces the old one in indexes and checks.
func (r *replayer) renameColumn(t *Table, from, to string) {
	col := t.Column(from)
	if col == nil {
		r.errorf("rename column %s in %s: unknown column", from, t.Name)
		return
	}
	if other := t.Column(to); other != nil && other != col {
		r.errorf("rename column %s in %s: duplicate column %s", from, t.Name, to)
		return
	}
	old := col.Name
	col.Name = to
	r.renameInIndexes(t, old, to)
	r.renameInChecks(t, old, to)
}

func (r *replayer) renameInIndexes(t *Table, from, to string) {
	m := r.tableMeta(t)
	for _, ix := range t.Indexes {
		lengths := m.lengths[ix]
		for i, c := range ix.Columns {
			if strings.EqualFold(c, from) && (i >= len(lengths) || lengths[i] >= 0) {
				ix.Columns[i] = to
			}
		}
	}
}

// alterColumnDefault replays ALTER COLUMN … SET DEFAULT / DROP DEFAULT.
func (r *replayer) alterColumnDefault(t *Table, spec *sqlparse.AlterTableSpec) {
	if len(spec.NewColumns) == 0 || spec.NewColumns[0] == nil || spec.NewColumns[0].Name == nil {
		return
	}
	def := spec.NewColumns[0]
	col := t.Column(def.Name.Name.O)
	if col == nil {
		r.errorf("alter column %s in %s: unknown column", def.Name.Name.O, t.Name)
		return
	}
	col.Default = nil
	ct, ok := r.tableMeta(t).types[col]
	if !ok {
		ct = sqlparse.ColumnType{Name: col.Type, Unsigned: col.Unsigned, Length: -1, Scale: -1}
	}
	for _, o := range def.Options {
		// SET DEFAULT comes as an option without a type of its own.
		if o != nil && o.Expr != nil && (o.Tp == sqlparse.ColumnOptionDefaultValue || o.Tp == sqlparse.ColumnOptionNoOption) {
			d := defaultText(o.Expr, ct)
			col.Default = &d
		}
	}
}

func (r *replayer) renameIndex(t *Table, from, to string) {
	ix := t.Index(from)
	if ix == nil || ix.Primary {
		r.errorf("rename index %s on %s: unknown index", from, t.Name)
		return
	}
	if other := t.Index(to); (other != nil && other != ix) || strings.EqualFold(to, "PRIMARY") {
		r.errorf("rename index %s on %s: duplicate index name %s", from, t.Name, to)
		return
	}
	ix.Name = to
}

func (r *replayer) dropForeignKey(t *Table, name string, ifExists bool) {
	m := r.tableMeta(t)
	if !m.foreignKeys[strings.ToLower(name)] {
		if !ifExists {
			r.errorf("drop foreign key %s on %s: unknown foreign key", name, t.Name)
		}
		return
	}
	delete(m.foreignKeys, strings.ToLower(name))
}

// dropConstraint replays DROP CHECK and DROP CONSTRAINT, which names a check,
// a unique index or a foreign key.
func (r *replayer) dropConstraint(t *Table, name string, ifExists bool) {
	if ch := findCheck(t, name); ch != nil {
		r.removeCheck(t, ch)
		return
	}
	if ix := t.Index(name); ix != nil && ix.Unique {
		r.removeIndex(t, ix)
		return
	}
	m := r.tableMeta(t)
	if m.foreignKeys[strings.ToLower(name)] {
		delete(m.foreignKeys, strings.ToLower(name))
		return
	}
	if !ifExists {
		r.errorf("drop constraint %s on %s: unknown constraint", name, t.Name)
	}
}

// createIndex replays CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX.
func (r *replayer) createIndex(n *sqlparse.CreateIndexStmt) {
	name := tableName(n.Table)
	t := r.s.Table(name)
	if t == nil {
		r.errorf("create index %s on %s: unknown table", n.IndexName, name)
		return
	}
	k := keyFromParts(n.IndexPartSpecifications)
	k.name, k.ifNotExists = n.IndexName, n.IfNotExists
	switch n.KeyType {
	case sqlparse.IndexKeyTypeUnique:
		k.unique = true
	case sqlparse.IndexKeyTypeFulltext:
		k.fulltext = true
	}
	r.addKeys(t, []pendingKey{k})
	r.tidy(t)
}

// dropIndexStmt replays DROP INDEX … ON t.
func (r *replayer) dropIndexStmt(n *sqlparse.DropIndexStmt) {
	name := tableName(n.Table)
	t := r.s.Table(name)
	if t == nil {
		r.errorf("drop index %s on %s: unknown table", n.IndexName, name)
		return
	}
	r.dropIndex(t, n.IndexName, n.IfExists)
	r.tidy(t)
}
