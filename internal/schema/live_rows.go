package schema

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// FromRows builds the schema that rows describe, the way FromDDL builds it
// from the DDL that made the same tables: base types lower case, defaults in
// FromDDL's canonical text, indexes and CHECK constraints in the server's
// order, checks through the same canonical form as CheckFromText. The server
// is read from rows.Version; its flavor decides how the rows are read.
//
// Rows of tables that rows.Tables does not list (views) are ignored, and so
// are bookkeeping tables (IsBookkeeping). A
// default or CHECK expression the parser cannot read is kept as the server
// printed it, and such a CHECK proves no column non-negative: a rule sees
// less protection, never more. Table.Created stays empty. The checks of a
// table that CHECK_CONSTRAINTS hid from the account come from its SHOW
// CREATE TABLE; a table whose definition was refused too (the account holds
// column privileges only) is ChecksUnknown and ColumnsPartial.
func FromRows(rows *InfoRows) (*Schema, Server, error) {
	if rows == nil {
		return nil, Server{}, errors.New("schema from information_schema: no rows")
	}
	srv := ParseServer(rows.Version)
	b := &rowBuilder{srv: srv, p: sqlparse.NewParser(), types: map[string]sqlparse.ColumnType{}, s: New()}
	for _, tr := range rows.Tables {
		if tr.Name == "" || b.s.Table(tr.Name) != nil || IsBookkeeping(tr.Name) {
			continue
		}
		t := &Table{Name: tr.Name}
		if tr.Engine != nil {
			t.Engine = *tr.Engine
		}
		b.s.Add(t)
	}
	b.addColumns(rows.Columns)
	if err := b.addIndexes(rows.Statistics); err != nil {
		return nil, srv, err
	}
	b.addChecks(rows.Checks)
	b.addDefinitions(rows.Definitions)
	b.s.GrantedTablesOnly = rows.Privileges.tablesOnly()
	for _, t := range b.s.Tables {
		if pk := t.Index("PRIMARY"); pk != nil {
			t.PrimaryKey = append([]string(nil), pk.Columns...)
		}
	}
	return b.s, srv, nil
}

// rowBuilder holds the state of one FromRows run.
type rowBuilder struct {
	srv Server
	p   *sqlparse.Parser
	// types caches parsed COLUMN_TYPE texts, which repeat across tables.
	types map[string]sqlparse.ColumnType
	s     *Schema
}

func (b *rowBuilder) addColumns(rows []ColumnRow) {
	byTable := map[*Table][]ColumnRow{}
	var order []*Table
	for _, r := range rows {
		t := b.s.Table(r.Table)
		if t == nil {
			continue
		}
		if _, seen := byTable[t]; !seen {
			order = append(order, t)
		}
		byTable[t] = append(byTable[t], r)
	}
	for _, t := range order {
		rs := byTable[t]
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Position < rs[j].Position })
		for _, r := range rs {
			if t.Column(r.Name) == nil {
				t.Columns = append(t.Columns, b.column(r))
			}
		}
	}
}

// column builds a column from its row. Its default follows FromDDL's
// invariant: a NULLable column without a default has the default NULL, and
// a NOT NULL column never has it.
func (b *rowBuilder) column(r ColumnRow) *Column {
	ct := b.columnType(r)
	c := &Column{
		Name:          r.Name,
		Type:          ct.Name,
		Unsigned:      ct.Unsigned,
		Nullable:      strings.EqualFold(r.IsNullable, "YES"),
		AutoIncrement: hasExtra(r.Extra, "auto_increment"),
		Comment:       r.Comment,
	}
	c.ColumnType = columnTypeText(c.Type, ct)
	c.Boolean = c.Type == "tinyint" && ct.Length == 1
	if r.Default != nil {
		d := b.defaultOf(r, ct)
		c.Default = &d
	}
	switch {
	case c.Nullable && c.Default == nil:
		null := "NULL"
		c.Default = &null
	case !c.Nullable && c.Default != nil && *c.Default == "NULL":
		c.Default = nil
	}
	return c
}

// columnType reads COLUMN_TYPE with the parser, for what FromDDL knows of a
// declared type (unsigned, scale, values); the base type is DATA_TYPE. A
// type the parser does not know (MariaDB's uuid, inet6) keeps DATA_TYPE
// alone.
func (b *rowBuilder) columnType(r ColumnRow) sqlparse.ColumnType {
	ct, ok := b.types[r.ColumnType]
	if !ok {
		ct = sqlparse.ColumnType{Length: -1, Scale: -1}
		if n, err := b.p.Parse("CREATE TABLE t (c " + r.ColumnType + ")"); err == nil {
			if ctn, isCreate := n.(*sqlparse.CreateTableStmt); isCreate && len(ctn.Cols) == 1 && len(ctn.Cols[0].Options) == 0 {
				ct = sqlparse.TypeOfColumn(ctn.Cols[0])
			}
		}
		b.types[r.ColumnType] = ct
	}
	ct.Name = strings.ToLower(r.DataType)
	return ct
}

// hasExtra reports whether EXTRA (space-separated words such as
// "DEFAULT_GENERATED on update CURRENT_TIMESTAMP") holds word.
func hasExtra(extra, word string) bool {
	for _, w := range strings.Fields(extra) {
		if strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// defaultOf returns the canonical text of a column's default, given that
// COLUMN_DEFAULT is not NULL.
func (b *rowBuilder) defaultOf(r ColumnRow, ct sqlparse.ColumnType) string {
	raw := *r.Default
	var text string
	switch {
	case b.srv.QuotesColumnDefault():
		text = raw
	case hasExtra(r.Extra, "DEFAULT_GENERATED"):
		text = b.expressionText(raw)
	default:
		text = b.literalText(raw, ct)
	}
	e, err := parseExpr(b.p, text)
	if err != nil {
		return raw
	}
	return defaultText(e, ct)
}

// literalText turns a bare default value, as MySQL shows it, into SQL:
// numbers as they are, b'…' on BIT and 0x… on binary columns as MySQL
// prints them, CURRENT_TIMESTAMP (which MySQL before 8.0.13 shows without
// DEFAULT_GENERATED) as the function, anything else a string.
func (b *rowBuilder) literalText(raw string, ct sqlparse.ColumnType) string {
	switch classOf(ct) {
	case classInteger, classDecimal, classFloat:
		if isNumberText(raw) {
			return raw
		}
	case classBit:
		if b.isLiteral(raw, sqlparse.LiteralBits) {
			return raw
		}
	case classString:
		if strings.Contains(ct.Name, "binary") || strings.Contains(ct.Name, "blob") {
			if b.isLiteral(raw, sqlparse.LiteralBits) {
				return raw
			}
		}
	case classOther:
		if e, err := parseExpr(b.p, raw); err == nil {
			if f, ok := unparen(e).(*sqlparse.FuncCallExpr); ok && isCurrentTimestamp(f.FnName.L) {
				return raw
			}
		}
	}
	return quote(raw)
}

// isLiteral reports whether text is one literal of the given kind.
func (b *rowBuilder) isLiteral(text string, kind sqlparse.LiteralKind) bool {
	e, err := parseExpr(b.p, text)
	if err != nil {
		return false
	}
	lit, ok := sqlparse.LiteralOf(e)
	return ok && lit.Kind == kind
}

func isCurrentTimestamp(fn string) bool {
	switch fn {
	case "current_timestamp", "now", "localtime", "localtimestamp":
		return true
	}
	return false
}

// expressionText undoes the second escaping of an expression that MySQL 8
// shows in information_schema (_utf8mb4\'NEW\' for _utf8mb4'NEW').
func (b *rowBuilder) expressionText(s string) string {
	if !b.srv.EscapesExpressionText() || !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// indexBuild is an index being assembled from its rows.
type indexBuild struct {
	ix       *Index
	parts    []StatisticsRow
	nullable bool
	fulltext bool
}

func (b *rowBuilder) addIndexes(rows []StatisticsRow) error {
	byTable := map[*Table][]*indexBuild{}
	var order []*Table
	for _, r := range rows {
		t := b.s.Table(r.Table)
		if t == nil {
			continue
		}
		list, seen := byTable[t]
		if !seen {
			order = append(order, t)
		}
		var ib *indexBuild
		for _, x := range list {
			if x.ix.Name == r.Index {
				ib = x
				break
			}
		}
		if ib == nil {
			ib = &indexBuild{ix: &Index{Name: r.Index, Unique: r.NonUnique == 0, Primary: strings.EqualFold(r.Index, "PRIMARY")}}
			byTable[t] = append(list, ib)
		}
		ib.parts = append(ib.parts, r)
		ib.nullable = ib.nullable || strings.EqualFold(r.Nullable, "YES")
		ib.fulltext = ib.fulltext || strings.EqualFold(r.IndexType, "FULLTEXT")
	}
	for _, t := range order {
		list := byTable[t]
		if !b.srv.ListsIndexesInKeyOrder() {
			sortKeys(list)
		}
		for _, ib := range list {
			sort.SliceStable(ib.parts, func(i, j int) bool { return ib.parts[i].Seq < ib.parts[j].Seq })
			for _, p := range ib.parts {
				name, err := b.keyPart(p)
				if err != nil {
					return fmt.Errorf("schema from information_schema: table %s: %w", t.Name, err)
				}
				ib.ix.Columns = append(ib.ix.Columns, name)
			}
			t.Indexes = append(t.Indexes, ib.ix)
		}
	}
	return nil
}

// keyPart names one index part as FromDDL does: the column, or a functional
// part's expression in canonical form within parentheses.
func (b *rowBuilder) keyPart(r StatisticsRow) (string, error) {
	if r.Column != nil {
		return *r.Column, nil
	}
	if r.Expression == nil {
		return "", fmt.Errorf("index %s part %d has neither a column nor an expression", r.Index, r.Seq)
	}
	text := b.expressionText(*r.Expression)
	if e, err := parseExpr(b.p, text); err == nil {
		text = sqlparse.Restore(e)
	}
	return "(" + text + ")", nil
}

// sortKeys orders indexes the way MySQL keeps them, for a server whose rows
// come in no order: unique before plain, among unique ones those without
// NULLable parts first and the primary key first of them; FULLTEXT last.
// Indexes of the same kind, whose order the rows cannot tell, go by name.
func sortKeys(list []*indexBuild) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		au, bu := a.ix.Unique || a.ix.Primary, b.ix.Unique || b.ix.Primary
		if au != bu {
			return au
		}
		if au {
			if a.nullable != b.nullable {
				return !a.nullable
			}
			if a.ix.Primary != b.ix.Primary {
				return a.ix.Primary
			}
		}
		if a.fulltext != b.fulltext {
			return !a.fulltext
		}
		return strings.ToLower(a.ix.Name) < strings.ToLower(b.ix.Name)
	})
}

func (b *rowBuilder) addChecks(rows []CheckRow) {
	var touched []*Table
	seen := map[*Table]bool{}
	for _, r := range rows {
		t := b.s.Table(r.Table)
		if t == nil {
			continue
		}
		enforced := r.Enforced == nil || !strings.EqualFold(*r.Enforced, "NO")
		clause := b.expressionText(r.Clause)
		var ch *Check
		if e, err := parseExpr(b.p, clause); err == nil {
			ch = newCheck(b.p, r.Name, e, enforced)
		} else {
			ch = &Check{Name: r.Name, Expr: clause, Enforced: enforced}
		}
		t.Checks = append(t.Checks, ch)
		if !seen[t] {
			seen[t] = true
			touched = append(touched, t)
		}
	}
	if !b.srv.SortsChecksByName() {
		return
	}
	for _, t := range touched {
		sort.SliceStable(t.Checks, func(i, j int) bool {
			return strings.ToLower(t.Checks[i].Name) < strings.ToLower(t.Checks[j].Name)
		})
	}
}

// addDefinitions takes the CHECK constraints of tables without check rows
// from their SHOW CREATE TABLE, read by FromDDL as a dump would be.
func (b *rowBuilder) addDefinitions(rows []DefinitionRow) {
	for _, d := range rows {
		t := b.s.Table(d.Table)
		if t == nil || len(t.Checks) > 0 {
			continue
		}
		if d.Refused {
			t.ChecksUnknown, t.ColumnsPartial = true, true
			continue
		}
		s, _ := FromDDL([]DDL{{SQL: d.CreateTable}})
		dt := s.Table(d.Table)
		if dt == nil {
			// A definition the parser cannot read tells nothing either way.
			t.ChecksUnknown = true
			continue
		}
		t.Checks = dt.Checks
	}
}
