package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// pendingKey is an index declared by a statement, before it is named and
// added to its table.
type pendingKey struct {
	name        string
	primary     bool
	unique      bool
	fulltext    bool
	ifNotExists bool
	// generated marks the index a foreign key asks for; it is dropped when
	// another index starts with the same key parts.
	generated bool
	cols      []string
	// index is the index an existing key describes.
	index *Index
	// lengths holds each part's prefix length: 0 for a whole column, -1 for
	// an expression part (a MySQL functional index).
	lengths []int
}

// keyFromParts reads the key parts of an index definition.
func keyFromParts(parts []*sqlparse.IndexPartSpecification) pendingKey {
	var k pendingKey
	for _, p := range parts {
		switch {
		case p == nil:
		case p.Column != nil:
			k.cols = append(k.cols, p.Column.Name.O)
			k.lengths = append(k.lengths, max(p.Length, 0))
		case p.Expr != nil:
			k.cols = append(k.cols, "("+sqlparse.Restore(p.Expr)+")")
			k.lengths = append(k.lengths, -1)
		}
	}
	return k
}

// isPrefixOf reports whether the key parts of a start the key parts of b.
func (a pendingKey) isPrefixOf(b pendingKey) bool {
	if len(a.cols) == 0 || len(a.cols) > len(b.cols) {
		return false
	}
	for i := range a.cols {
		if !strings.EqualFold(a.cols[i], b.cols[i]) || a.lengths[i] != b.lengths[i] {
			return false
		}
	}
	return true
}

// generatedPrefix reports whether one of a and b is a generated key whose
// parts start the other's (the shorter one, when both are generated).
func generatedPrefix(a, b pendingKey) bool {
	switch {
	case a.generated && b.generated && len(a.cols) > len(b.cols):
		a, b = b, a
	case !a.generated && !b.generated:
		return false
	case !a.generated:
		a, b = b, a
	}
	return a.isPrefixOf(b)
}

// coveredGenerated marks the keys the server leaves out of a table whose key
// list is keys (existing indexes first, then the new ones): an index
// generated for a foreign key goes when another index starts with its parts;
// of two generated ones the shorter goes, or else the earlier.
func coveredGenerated(keys []pendingKey) []bool {
	dropped := make([]bool, len(keys))
	for i, k := range keys {
		for j := 0; j < i; j++ {
			if dropped[j] || !generatedPrefix(k, keys[j]) {
				continue
			}
			if !keys[j].generated || (k.generated && len(k.cols) < len(keys[j].cols)) {
				dropped[i] = true
			} else {
				dropped[j] = true
			}
			break
		}
	}
	return dropped
}

// existingKeys describes the indexes of t as pending keys, to compare new
// keys with them.
func (r *replayer) existingKeys(t *Table) []pendingKey {
	m := r.tableMeta(t)
	var out []pendingKey
	for _, ix := range t.Indexes {
		lengths := m.lengths[ix]
		if len(lengths) != len(ix.Columns) {
			lengths = make([]int, len(ix.Columns))
		}
		out = append(out, pendingKey{name: ix.Name, primary: ix.Primary, unique: ix.Unique, generated: m.generated[ix],
			cols: ix.Columns, lengths: lengths, index: ix})
	}
	return out
}

// addKeys adds the keys a statement declares to t the way the server does:
// the indexes generated for foreign keys that another index now covers,
// existing or new, are left out first; then the new keys are named and added
// in order.
func (r *replayer) addKeys(t *Table, keys []pendingKey) {
	if len(keys) == 0 {
		return
	}
	existing := r.existingKeys(t)
	dropped := coveredGenerated(append(existing, keys...))
	for i, e := range existing {
		if dropped[i] {
			r.removeIndex(t, e.index)
		}
	}
	for j, k := range keys {
		if !dropped[len(existing)+j] {
			r.addKey(t, k)
		}
	}
}

func (r *replayer) addKey(t *Table, k pendingKey) {
	if len(k.cols) == 0 {
		return
	}
	for i, c := range k.cols {
		if k.lengths[i] >= 0 && t.Column(c) == nil {
			r.errorf("add index on %s: unknown column %s", t.Name, c)
			return
		}
	}
	m := r.tableMeta(t)
	name := k.name
	switch {
	case k.primary:
		if t.Index("PRIMARY") != nil {
			r.errorf("add primary key on %s: multiple primary keys defined", t.Name)
			return
		}
		name = "PRIMARY"
		for _, c := range k.cols {
			if col := t.Column(c); col != nil {
				col.Nullable = false // like the server: key parts of a primary key are NOT NULL
			}
		}
	case name != "":
		if strings.EqualFold(name, "PRIMARY") {
			r.errorf("add index on %s: incorrect index name %s", t.Name, name)
			return
		}
		if t.Index(name) != nil {
			if !k.ifNotExists {
				r.errorf("add index on %s: duplicate index name %s", t.Name, name)
			}
			return
		}
	default:
		name = uniqueIndexName(t, k)
	}
	cols := make([]string, len(k.cols))
	for i, c := range k.cols {
		cols[i] = c
		if col := t.Column(c); col != nil && k.lengths[i] >= 0 {
			cols[i] = col.Name // the column's own spelling, as information_schema gives it
		}
	}
	ix := &Index{Name: name, Unique: k.unique || k.primary, Primary: k.primary, Columns: cols}
	t.Indexes = append(t.Indexes, ix)
	m.lengths[ix] = append([]int(nil), k.lengths...)
	if k.fulltext {
		m.fulltext[ix] = true
	}
	if k.generated {
		m.generated[ix] = true
	}
}

// uniqueIndexName is the name the server gives an unnamed index: its first
// column, then <column>_2, <column>_3 … while the name is taken.
func uniqueIndexName(t *Table, k pendingKey) string {
	base := k.cols[0]
	if k.lengths[0] < 0 {
		base = "functional_index"
	} else if col := t.Column(base); col != nil {
		base = col.Name
	}
	if t.Index(base) == nil && !strings.EqualFold(base, "PRIMARY") {
		return base
	}
	for i := 2; ; i++ {
		name := fmt.Sprintf("%s_%d", base, i)
		if t.Index(name) == nil {
			return name
		}
	}
}

// dropIndex removes the index named name ("PRIMARY" for the primary key).
func (r *replayer) dropIndex(t *Table, name string, ifExists bool) {
	ix := t.Index(name)
	if ix == nil {
		if !ifExists {
			if strings.EqualFold(name, "PRIMARY") {
				r.errorf("drop primary key on %s: table has no primary key", t.Name)
			} else {
				r.errorf("drop index %s on %s: unknown index", name, t.Name)
			}
		}
		return
	}
	r.removeIndex(t, ix)
}

func (r *replayer) removeIndex(t *Table, ix *Index) {
	for i, x := range t.Indexes {
		if x == ix {
			t.Indexes = append(t.Indexes[:i:i], t.Indexes[i+1:]...)
			break
		}
	}
	m := r.tableMeta(t)
	delete(m.lengths, ix)
	delete(m.fulltext, ix)
	delete(m.generated, ix)
}

// tidy restores the invariants of t after a statement: PrimaryKey matching
// the PRIMARY index, its columns and AUTO_INCREMENT columns NOT NULL, the
// default of a NULLable column without one being NULL (information_schema on
// MariaDB says 'NULL' whether DEFAULT NULL was written or not), indexes and
// checks in the server's order.
func (r *replayer) tidy(t *Table) {
	t.PrimaryKey = nil
	if pk := t.Index("PRIMARY"); pk != nil && pk.Primary {
		t.PrimaryKey = append([]string(nil), pk.Columns...)
		for _, c := range pk.Columns {
			if col := t.Column(c); col != nil {
				col.Nullable = false
			}
		}
	}
	for _, col := range t.Columns {
		if col.AutoIncrement {
			col.Nullable = false
		}
		switch {
		case col.Nullable && col.Default == nil:
			null := "NULL"
			col.Default = &null
		case !col.Nullable && col.Default != nil && *col.Default == "NULL":
			col.Default = nil
		}
	}
	r.sortIndexes(t)
	r.sortChecks(t)
}

// sortIndexes orders the indexes the way MariaDB stores them (and SHOW
// CREATE TABLE lists them): unique indexes first, those without NULLable
// parts before the others and the primary key first among them, whole-column
// keys before prefix keys; then plain indexes, FULLTEXT last; otherwise in
// the order they were added.
func (r *replayer) sortIndexes(t *Table) {
	m := r.tableMeta(t)
	nullPart := func(ix *Index) bool {
		for _, c := range ix.Columns {
			if col := t.Column(c); col != nil && col.Nullable {
				return true
			}
		}
		return false
	}
	partial := func(ix *Index) bool {
		for _, l := range m.lengths[ix] {
			if l > 0 {
				return true
			}
		}
		return false
	}
	sort.SliceStable(t.Indexes, func(i, j int) bool {
		a, b := t.Indexes[i], t.Indexes[j]
		au, bu := a.Unique || a.Primary, b.Unique || b.Primary
		if au != bu {
			return au
		}
		if au {
			if an, bn := nullPart(a), nullPart(b); an != bn {
				return !an
			}
			if a.Primary != b.Primary {
				return a.Primary
			}
			if ap, bp := partial(a), partial(b); ap != bp {
				return !ap
			}
			return false
		}
		if af, bf := m.fulltext[a], m.fulltext[b]; af != bf {
			return !af
		}
		return false
	})
}
