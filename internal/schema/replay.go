package schema

import "github.com/guard-sql/guard/internal/sqlparse"

// Replay replays DDL one statement at a time, for the rules that judge a
// migration statement against the schema as it stood before it (what a
// DROP COLUMN removes, which CHECK a DROP CONSTRAINT names). FromDDL is
// the same replay run to the end.
type Replay struct{ r *replayer }

// NewReplay returns a replay of nothing yet.
func NewReplay() *Replay {
	return &Replay{r: &replayer{s: New(), meta: map[*Table]*tableMeta{}}}
}

// Apply replays one statement; one the server would refuse changes nothing.
func (p *Replay) Apply(d DDL) { p.r.apply(d) }

// Schema is the schema replayed so far. The replay changes its tables in
// place: keep a Clone of a table to compare it with what a statement made
// of it.
func (p *Replay) Schema() *Schema { return p.r.s }

// Clone returns a copy of t that later changes to t do not reach.
func (t *Table) Clone() *Table {
	c := *t
	c.Columns = make([]*Column, len(t.Columns))
	for i, col := range t.Columns {
		cc := *col
		c.Columns[i] = &cc
	}
	c.Indexes = make([]*Index, len(t.Indexes))
	for i, ix := range t.Indexes {
		ic := *ix
		ic.Columns = append([]string(nil), ix.Columns...)
		c.Indexes[i] = &ic
	}
	c.Checks = make([]*Check, len(t.Checks))
	for i, ch := range t.Checks {
		cc := *ch
		cc.NonNegative = append([]string(nil), ch.NonNegative...)
		c.Checks[i] = &cc
	}
	c.PrimaryKey = append([]string(nil), t.PrimaryKey...)
	return &c
}

// Declared is what the replay knows of column c of table t beyond the
// model: its parsed type (length, scale and ENUM values) and its type as
// the definition writes it, lower case ("int(11)", "varchar(64)"); false
// when the replay did not declare it.
func (p *Replay) Declared(t *Table, c *Column) (ct sqlparse.ColumnType, text string, ok bool) {
	m := p.r.meta[t]
	if m == nil {
		return ct, "", false
	}
	ct, ok = m.types[c]
	return ct, m.declared[c], ok
}
