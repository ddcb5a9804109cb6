package schema

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// DDL is one parsed statement to replay, with where it stands in its file.
type DDL struct {
	// Node is the parsed statement; when nil, SQL is parsed instead.
	Node sqlparse.StmtNode
	// SQL is the statement text.
	SQL string
	// File, Line and Col locate the first character of the statement (1-based).
	File string
	Line int
	Col  int
}

// ReplayError is an inconsistency met while replaying DDL, such as an ALTER on
// a table that does not exist, or a statement that could not be parsed. The
// server would have refused the statement; replay goes on without it.
type ReplayError struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error formats the error as file:line:col: message.
func (e *ReplayError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// FromDDL replays statements in the given order and returns the schema they
// build. Statements other than CREATE/ALTER/DROP/RENAME TABLE and CREATE/DROP
// INDEX are ignored. A statement the server would refuse (an ALTER of an
// unknown table, a duplicate column, …) changes nothing and is reported as a
// ReplayError; replay goes on with the next one. A DDL without Node is parsed
// from SQL; when that fails, the parse error is a ReplayError at its place in
// the file, unless the statement defines a trigger, routine, event or view,
// which replay does not need. Where MySQL and MariaDB differ (generated
// names, JSON columns, what MODIFY does to a column CHECK) the result follows
// MariaDB, so that it equals what FromInformationSchema reads from a MariaDB
// server that ran the same DDL. Bookkeeping tables (IsBookkeeping), which a
// dump of a migrated database holds, are left out.
func FromDDL(stmts []DDL) (*Schema, []*ReplayError) {
	r := &replayer{s: New(), meta: map[*Table]*tableMeta{}}
	for _, d := range stmts {
		r.apply(d)
	}
	dropBookkeeping(r.s)
	return r.s, r.errs
}

// replayer holds the state of one FromDDL run.
type replayer struct {
	s      *Schema
	errs   []*ReplayError
	parser *sqlparse.Parser
	// meta holds what the model does not show but replay needs, per table.
	meta map[*Table]*tableMeta
	// at is the statement being replayed, for error positions.
	at DDL
	// dropping holds the lower-case names of the columns the ALTER being
	// replayed drops.
	dropping map[string]bool
	// renameTo is the new name an ALTER … RENAME TO gives its table.
	renameTo string
}

// tableMeta is the replay-only state of a table.
type tableMeta struct {
	// lengths holds the prefix length of every key part of an index (0 for a
	// whole column); prefix parts sort an index after the others, like MariaDB.
	lengths map[*Index][]int
	// fulltext marks FULLTEXT indexes, which MariaDB lists last.
	fulltext map[*Index]bool
	// generated marks the indexes created for a foreign key, which the
	// server drops when another index covers them.
	generated map[*Index]bool
	// colCheck maps a column-level CHECK (MariaDB ties it to its column) to
	// the lower-case name of its column.
	colCheck map[*Check]string
	// foreignKeys holds the names of the table's foreign keys, lower case.
	foreignKeys map[string]bool
	// types holds each column's declared type, whose length and scale the
	// model leaves out but SET DEFAULT needs.
	types map[*Column]sqlparse.ColumnType
	// declared holds each column's type as its definition writes it, lower
	// case ("int(11)", "varchar(10) character set utf8mb4"), for the
	// migration rules' messages.
	declared map[*Column]string
}

func newTableMeta() *tableMeta {
	return &tableMeta{
		lengths:     map[*Index][]int{},
		fulltext:    map[*Index]bool{},
		generated:   map[*Index]bool{},
		colCheck:    map[*Check]string{},
		foreignKeys: map[string]bool{},
		types:       map[*Column]sqlparse.ColumnType{},
		declared:    map[*Column]string{},
	}
}

func (r *replayer) errorf(format string, args ...any) {
	r.errs = append(r.errs, &ReplayError{File: r.at.File, Line: r.at.Line, Col: r.at.Col, Msg: fmt.Sprintf(format, args...)})
}

func (r *replayer) parse(sql string) (sqlparse.StmtNode, error) {
	return r.exprParser().Parse(sql)
}

func (r *replayer) apply(d DDL) {
	r.at = d
	node := d.Node
	if node == nil {
		if strings.TrimSpace(d.SQL) == "" {
			return
		}
		n, err := r.parse(d.SQL)
		if err != nil {
			if !isProgram(d.SQL) {
				r.parseError(err)
			}
			return
		}
		node = n
	}
	switch n := node.(type) {
	case *sqlparse.CreateTableStmt:
		r.createTable(n)
	case *sqlparse.AlterTableStmt:
		r.alterTable(n)
	case *sqlparse.CreateIndexStmt:
		r.createIndex(n)
	case *sqlparse.DropIndexStmt:
		r.dropIndexStmt(n)
	case *sqlparse.DropTableStmt:
		r.dropTables(n)
	case *sqlparse.RenameTableStmt:
		r.renameTables(n)
	}
}

// parseError reports a parse error at its place in the file.
func (r *replayer) parseError(err error) {
	line, col, msg := r.at.Line, r.at.Col, err.Error()
	if pe, ok := err.(*sqlparse.Error); ok {
		line, col = shiftPos(r.at.Line, r.at.Col, pe.Line, pe.Column)
		msg = strings.TrimSpace(pe.Msg)
	}
	r.errs = append(r.errs, &ReplayError{File: r.at.File, Line: line, Col: col, Msg: "cannot parse statement: " + msg})
}

// shiftPos turns a position inside a statement into a position in the file
// whose statement starts at line:col.
func shiftPos(line, col, inLine, inCol int) (int, int) {
	if line < 1 {
		line, col = 1, 1
	}
	if inLine <= 1 {
		return line, col + inCol - 1
	}
	return line + inLine - 1, inCol
}

// tableName is the name of a possibly schema-qualified table.
func tableName(tn *sqlparse.TableName) string {
	if tn == nil {
		return ""
	}
	return tn.Name.O
}

func (r *replayer) tableMeta(t *Table) *tableMeta {
	m := r.meta[t]
	if m == nil {
		m = newTableMeta()
		r.meta[t] = m
	}
	return m
}

func (r *replayer) createTable(n *sqlparse.CreateTableStmt) {
	if n.TemporaryKeyword != sqlparse.TemporaryNone {
		return // temporary tables do not outlive the session that ran the migration
	}
	name := tableName(n.Table)
	if name == "" {
		return
	}
	if r.s.Table(name) != nil {
		if !n.IfNotExists {
			r.errorf("create table %s: table already exists", name)
		}
		return
	}
	created := Pos{File: r.at.File, Line: r.at.Line, Col: r.at.Col}
	if n.ReferTable != nil {
		src := r.s.Table(tableName(n.ReferTable))
		if src == nil {
			r.errorf("create table %s like %s: unknown table", name, tableName(n.ReferTable))
			return
		}
		t, m := r.copyTable(src, false)
		t.Name, t.Created = name, created
		r.s.Add(t)
		r.meta[t] = m
		return
	}
	t := &Table{Name: name, Created: created}
	m := newTableMeta()
	r.meta[t] = m
	nerr := len(r.errs)
	for _, opt := range n.Options {
		if opt != nil && opt.Tp == sqlparse.TableOptionEngine {
			t.Engine = canonicalEngine(opt.StrValue)
		}
	}
	var keys []pendingKey
	var checks []pendingCheck
	for _, def := range n.Cols {
		col, extra := r.columnFromDef(def)
		if col == nil {
			continue
		}
		if t.Column(col.Name) != nil {
			r.errorf("create table %s: duplicate column %s", name, col.Name)
			continue
		}
		t.Columns = append(t.Columns, col)
		m.types[col], m.declared[col] = extra.typ, extra.text
		keys = append(keys, extra.keys...)
		checks = append(checks, extra.checks...)
	}
	for _, c := range n.Constraints {
		k, ch, ok := r.constraint(t, c)
		if !ok {
			continue
		}
		if k != nil {
			keys = append(keys, *k)
		}
		if ch != nil {
			checks = append(checks, *ch)
		}
	}
	r.addKeys(t, keys)
	r.addChecks(t, checks)
	if len(r.errs) > nerr {
		// The server refuses the whole statement.
		delete(r.meta, t)
		return
	}
	r.tidy(t)
	r.s.Add(t)
}

// columnExtras are the declared type of a column and the keys and checks
// declared inline with it.
type columnExtras struct {
	typ    sqlparse.ColumnType
	text   string // the type as written, lower case
	keys   []pendingKey
	checks []pendingCheck
}

// columnFromDef builds a column from its definition, with the keys and checks
// its options declare.
func (r *replayer) columnFromDef(def *sqlparse.ColumnDef) (*Column, columnExtras) {
	var extra columnExtras
	if def == nil || def.Name == nil || def.Name.Name.O == "" {
		return nil, extra
	}
	ct := sqlparse.TypeOfColumn(def)
	extra.typ = ct
	if def.Tp != nil {
		extra.text = strings.ToLower(def.Tp.String())
	}
	col := &Column{Name: def.Name.Name.O, Type: ct.Name, Unsigned: ct.Unsigned, Nullable: true}
	if col.Type == "json" {
		// MariaDB stores JSON as LONGTEXT guarded by a column CHECK named
		// after the column.
		col.Type = "longtext"
	}
	col.ColumnType = columnTypeText(col.Type, ct)
	col.Boolean = col.Type == "tinyint" && ct.Length == 1
	hasCheck := false
	for _, o := range def.Options {
		if o == nil {
			continue
		}
		switch o.Tp {
		case sqlparse.ColumnOptionNotNull:
			col.Nullable = false
		case sqlparse.ColumnOptionNull:
			col.Nullable = true
		case sqlparse.ColumnOptionPrimaryKey:
			col.Nullable = false
			extra.keys = append(extra.keys, pendingKey{primary: true, unique: true, cols: []string{col.Name}, lengths: []int{0}})
		case sqlparse.ColumnOptionUniqKey:
			extra.keys = append(extra.keys, pendingKey{unique: true, cols: []string{col.Name}, lengths: []int{0}})
		case sqlparse.ColumnOptionAutoIncrement:
			col.AutoIncrement = true
		case sqlparse.ColumnOptionComment:
			if lit, ok := sqlparse.LiteralOf(o.Expr); ok && lit.Kind == sqlparse.LiteralString {
				col.Comment = lit.Text
			}
		case sqlparse.ColumnOptionDefaultValue:
			if o.Expr != nil {
				d := defaultText(o.Expr, ct)
				col.Default = &d
			}
		case sqlparse.ColumnOptionCheck:
			if o.Expr == nil {
				continue
			}
			hasCheck = true
			pc := pendingCheck{name: o.ConstraintName, expr: o.Expr, enforced: o.Enforced}
			if pc.name == "" {
				// MariaDB names a column CHECK after its column and drops
				// it with the column definition.
				pc.name, pc.column = col.Name, col.Name
			}
			extra.checks = append(extra.checks, pc)
		}
	}
	if ct.Name == "json" && !hasCheck {
		if e, err := r.parseExpr("JSON_VALID(`" + strings.ReplaceAll(col.Name, "`", "``") + "`)"); err == nil {
			extra.checks = append(extra.checks, pendingCheck{name: col.Name, column: col.Name, expr: e, enforced: true})
		}
	}
	return col, extra
}

// constraint turns a table constraint into a pending key or check. ok is
// false when the constraint adds nothing to the model.
func (r *replayer) constraint(t *Table, c *sqlparse.Constraint) (*pendingKey, *pendingCheck, bool) {
	if c == nil {
		return nil, nil, false
	}
	switch c.Tp {
	case sqlparse.ConstraintPrimaryKey:
		k := keyFromParts(c.Keys)
		k.primary, k.unique = true, true
		return &k, nil, true
	case sqlparse.ConstraintKey, sqlparse.ConstraintIndex:
		k := keyFromParts(c.Keys)
		k.name, k.ifNotExists = c.Name, c.IfNotExists
		return &k, nil, true
	case sqlparse.ConstraintUniq, sqlparse.ConstraintUniqKey, sqlparse.ConstraintUniqIndex:
		k := keyFromParts(c.Keys)
		k.name, k.unique, k.ifNotExists = c.Name, true, c.IfNotExists
		return &k, nil, true
	case sqlparse.ConstraintFulltext:
		k := keyFromParts(c.Keys)
		k.name, k.fulltext, k.ifNotExists = c.Name, true, c.IfNotExists
		return &k, nil, true
	case sqlparse.ConstraintForeignKey:
		return r.foreignKey(t, c), nil, true
	case sqlparse.ConstraintCheck:
		if c.Expr == nil {
			return nil, nil, false
		}
		return nil, &pendingCheck{name: c.Name, expr: c.Expr, enforced: c.Enforced}, true
	}
	return nil, nil, false
}

// foreignKey records a foreign key and returns the index the server creates
// for it unless another index already starts with its columns.
func (r *replayer) foreignKey(t *Table, c *sqlparse.Constraint) *pendingKey {
	m := r.tableMeta(t)
	name := c.Name
	if name == "" {
		// InnoDB's generated names: <table>_ibfk_<n>.
		for n := 1; ; n++ {
			name = fmt.Sprintf("%s_ibfk_%d", t.Name, n)
			if !m.foreignKeys[strings.ToLower(name)] {
				break
			}
		}
	}
	m.foreignKeys[strings.ToLower(name)] = true
	k := keyFromParts(c.Keys)
	k.name, k.generated = c.Name, true
	return &k
}
