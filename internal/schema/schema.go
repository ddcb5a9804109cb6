// Package schema holds guard's one model of a database schema. Two builders fill
// it: FromDDL replays migration files offline, FromInformationSchema reads a live
// server. Rules never know which one built the model they see.
package schema

import (
	"sort"
	"strings"
)

// Schema is a set of tables.
type Schema struct {
	// Tables by lower-case name.
	Tables map[string]*Table
	// GrantedTablesOnly is set when the live account holds no privilege on
	// the whole database, only on some of its tables: information_schema
	// lists just those, so tables may be missing.
	GrantedTablesOnly bool
}

// New returns an empty schema.
func New() *Schema { return &Schema{Tables: map[string]*Table{}} }

// Table returns the table named name (case-insensitive), or nil.
func (s *Schema) Table(name string) *Table {
	if s == nil {
		return nil
	}
	return s.Tables[strings.ToLower(name)]
}

// Add puts t into the schema, replacing a table of the same name.
func (s *Schema) Add(t *Table) { s.Tables[strings.ToLower(t.Name)] = t }

// Remove deletes the table named name.
func (s *Schema) Remove(name string) { delete(s.Tables, strings.ToLower(name)) }

// Sorted returns the tables ordered by name.
func (s *Schema) Sorted() []*Table {
	out := make([]*Table, 0, len(s.Tables))
	for _, t := range s.Tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Pos is where a table was created: a migration file and line, empty when live.
type Pos struct {
	File string
	Line int
	Col  int
}

// Table is one table.
type Table struct {
	Name    string
	Columns []*Column
	Indexes []*Index
	Checks  []*Check
	// Engine as declared, e.g. "InnoDB"; empty when not declared (the server default, InnoDB).
	Engine string
	// PrimaryKey lists the primary key columns in order; empty when there is none.
	PrimaryKey []string
	// Created is where the table was created (offline only).
	Created Pos
	// ChecksUnknown is set when the live account could not read the
	// table's CHECK constraints: Checks is then empty and proves nothing,
	// neither that a column is guarded nor that it is not.
	ChecksUnknown bool
	// ColumnsPartial is set when the live account holds privileges on some
	// of the table's columns only: information_schema shows it those
	// columns and no index, so what the table lacks cannot be told.
	ColumnsPartial bool
}

// Column is one column.
type Column struct {
	Name string
	// Type is the lower-case base type without length or attributes: "int", "bigint", "decimal", "varchar", "enum".
	Type string
	// ColumnType is the full lower-case type as information_schema's
	// COLUMN_TYPE shows it, without integer display widths:
	// "decimal(12,2) unsigned", "varchar(64)", "bigint unsigned",
	// "enum('NEW','PAID')". Declaring a column with it keeps its type.
	ColumnType string
	Unsigned   bool
	Nullable   bool
	// Default is the column default as SQL text ("0", "'new'", "NULL",
	// "CURRENT_TIMESTAMP"); nil when the column has no default.
	Default *string
	// AutoIncrement is set for AUTO_INCREMENT columns.
	AutoIncrement bool
	// Comment is the column's COMMENT text; vocabulary inference reads the
	// states it enumerates ("0->unpaid; 1->paid; 2->shipped").
	Comment string
	// Boolean is set for a column declared BOOL, BOOLEAN or TINYINT(1),
	// MySQL's boolean (both servers keep that display width in COLUMN_TYPE).
	Boolean bool
}

// Index is one index, the primary key included (Name "PRIMARY").
type Index struct {
	Name    string
	Unique  bool
	Primary bool
	Columns []string
}

// Check is one CHECK constraint, table- or column-level.
type Check struct {
	Name string
	// Expr is the expression in guard's canonical form (sqlparse.Restore of the
	// parsed expression), so that both builders produce the same text.
	Expr     string
	Enforced bool
	// NonNegative lists the columns the expression proves >= 0 (col >= 0,
	// col > -1, 0 <= col, conjunctions of them).
	NonNegative []string
}

// Column returns the column named name (case-insensitive), or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// Index returns the index named name (case-insensitive), or nil.
func (t *Table) Index(name string) *Index {
	for _, ix := range t.Indexes {
		if strings.EqualFold(ix.Name, name) {
			return ix
		}
	}
	return nil
}

// HasUniqueOn reports whether a unique index (or the primary key) covers
// exactly the columns cols, in any order.
func (t *Table) HasUniqueOn(cols ...string) bool {
	for _, ix := range t.Indexes {
		if (ix.Unique || ix.Primary) && SameColumns(ix.Columns, cols) {
			return true
		}
	}
	return false
}

// NonNegativeCheck returns the enforced check proving col >= 0, or else an
// unenforced one, or nil.
func (t *Table) NonNegativeCheck(col string) *Check {
	var found *Check
	for _, c := range t.Checks {
		for _, n := range c.NonNegative {
			if strings.EqualFold(n, col) {
				if c.Enforced {
					return c
				}
				found = c
			}
		}
	}
	return found
}

// SameColumns reports whether a and b name the same columns, in any order,
// case-insensitively.
func SameColumns(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[strings.ToLower(x)]++
	}
	for _, x := range b {
		k := strings.ToLower(x)
		if seen[k] == 0 {
			return false
		}
		seen[k]--
	}
	return true
}

// IsInteger reports whether the column has an integer type.
func (c *Column) IsInteger() bool {
	switch c.Type {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint":
		return true
	}
	return false
}
