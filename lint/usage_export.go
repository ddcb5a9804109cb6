package lint

import (
	"maps"
	"slices"
)

// UsageTable is what a Usage holds of one table, in exported fields: the
// lint cache keeps a file's uses so, and UsageFrom makes them again.
type UsageTable struct {
	Name            string
	All, Positional Uses
	// Columns and Written are the uses of each column, by column name.
	Columns, Written []ColumnUses
	Inserts          []InsertUse
}

// ColumnUses are the uses of one column.
type ColumnUses struct {
	Column string
	Uses   Uses
}

// InsertUse is an INSERT or REPLACE with a column list, and the columns it names.
type InsertUse struct {
	Use     Use
	Columns []string
}

// Export returns what u holds, table by table in name order; nil for a nil u.
func (u *Usage) Export() []UsageTable {
	if u == nil {
		return nil
	}
	out := make([]UsageTable, 0, len(u.tables))
	for _, name := range slices.Sorted(maps.Keys(u.tables)) {
		tu := u.tables[name]
		t := UsageTable{Name: name, All: tu.all, Positional: tu.positional,
			Columns: columnUses(tu.columns), Written: columnUses(tu.written)}
		for _, in := range tu.inserts {
			var cols []string
			for _, c := range slices.Sorted(maps.Keys(in.columns)) {
				if in.columns[c] {
					cols = append(cols, c)
				}
			}
			t.Inserts = append(t.Inserts, InsertUse{Use: in.Use, Columns: cols})
		}
		out = append(out, t)
	}
	return out
}

func columnUses(m map[string]*Uses) []ColumnUses {
	var out []ColumnUses
	for _, c := range slices.Sorted(maps.Keys(m)) {
		out = append(out, ColumnUses{Column: c, Uses: *m[c]})
	}
	return out
}

// UsageFrom returns the Usage whose Export is ts: a Usage that answers
// every question as the one exported did, and merges as it does.
func UsageFrom(ts []UsageTable) *Usage {
	u := &Usage{}
	for _, t := range ts {
		tu := u.table(t.Name)
		tu.all, tu.positional = t.All, t.Positional
		for _, c := range t.Columns {
			*tu.column(c.Column) = c.Uses
		}
		for _, c := range t.Written {
			*tu.writes(c.Column) = c.Uses
		}
		for _, in := range t.Inserts {
			cols := make(map[string]bool, len(in.Columns))
			for _, c := range in.Columns {
				cols[c] = true
			}
			tu.inserts = append(tu.inserts, insertUse{Use: in.Use, columns: cols})
		}
	}
	return u
}
