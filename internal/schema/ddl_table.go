package schema

import (
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// copyTable returns a deep copy of t and of its replay state. CREATE TABLE …
// LIKE does not copy foreign keys (withForeignKeys false), as the server
// does not.
func (r *replayer) copyTable(src *Table, withForeignKeys bool) (*Table, *tableMeta) {
	sm := r.tableMeta(src)
	t := &Table{Name: src.Name, Engine: src.Engine, PrimaryKey: append([]string(nil), src.PrimaryKey...), Created: src.Created}
	m := newTableMeta()
	for _, c := range src.Columns {
		cc := *c
		if c.Default != nil {
			d := *c.Default
			cc.Default = &d
		}
		t.Columns = append(t.Columns, &cc)
		if ct, ok := sm.types[c]; ok {
			m.types[&cc] = ct
		}
		if text, ok := sm.declared[c]; ok {
			m.declared[&cc] = text
		}
	}
	for _, ix := range src.Indexes {
		nx := &Index{Name: ix.Name, Unique: ix.Unique, Primary: ix.Primary, Columns: append([]string(nil), ix.Columns...)}
		t.Indexes = append(t.Indexes, nx)
		m.lengths[nx] = append([]int(nil), sm.lengths[ix]...)
		m.fulltext[nx] = sm.fulltext[ix]
		m.generated[nx] = sm.generated[ix]
	}
	for _, ch := range src.Checks {
		nc := &Check{Name: ch.Name, Expr: ch.Expr, Enforced: ch.Enforced, NonNegative: append([]string(nil), ch.NonNegative...)}
		t.Checks = append(t.Checks, nc)
		if col, ok := sm.colCheck[ch]; ok {
			m.colCheck[nc] = col
		}
	}
	if withForeignKeys {
		for fk := range sm.foreignKeys {
			m.foreignKeys[fk] = true
		}
	}
	return t, m
}

// dropTables replays DROP TABLE.
func (r *replayer) dropTables(n *sqlparse.DropTableStmt) {
	if n.IsView || n.TemporaryKeyword != sqlparse.TemporaryNone {
		return
	}
	for _, tn := range n.Tables {
		name := tableName(tn)
		t := r.s.Table(name)
		if t == nil {
			if !n.IfExists {
				r.errorf("drop table %s: unknown table", name)
			}
			continue
		}
		r.s.Remove(name)
		delete(r.meta, t)
	}
}

// renameTables replays RENAME TABLE a TO b, c TO d, one pair after the
// other; when one pair fails the server undoes the others.
func (r *replayer) renameTables(n *sqlparse.RenameTableStmt) {
	type done struct{ from, to string }
	var renamed []done
	for _, tt := range n.TableToTables {
		if tt == nil {
			continue
		}
		from, to := tableName(tt.OldTable), tableName(tt.NewTable)
		if t := r.s.Table(from); t != nil {
			from = t.Name // the spelling to restore on undo
		}
		if !r.renameTable(from, to) {
			for i := len(renamed) - 1; i >= 0; i-- {
				r.renameTable(renamed[i].to, renamed[i].from)
			}
			return
		}
		renamed = append(renamed, done{from: from, to: to})
	}
}

// renameTable renames a table; it reports false when the server would refuse.
func (r *replayer) renameTable(from, to string) bool {
	t := r.s.Table(from)
	if t == nil {
		r.errorf("rename table %s: unknown table", from)
		return false
	}
	if to == "" {
		return true
	}
	if other := r.s.Table(to); other != nil && other != t {
		r.errorf("rename table %s to %s: table already exists", from, to)
		return false
	}
	r.s.Remove(from)
	t.Name = to
	r.s.Add(t)
	return true
}

// canonicalEngine spells an engine name the way information_schema does.
func canonicalEngine(s string) string {
	switch strings.ToLower(s) {
	case "innodb":
		return "InnoDB"
	case "myisam":
		return "MyISAM"
	case "memory", "heap":
		return "MEMORY"
	case "aria":
		return "Aria"
	case "csv":
		return "CSV"
	case "archive":
		return "ARCHIVE"
	case "blackhole":
		return "BLACKHOLE"
	case "merge", "mrg_myisam":
		return "MRG_MyISAM"
	case "federated":
		return "FEDERATED"
	case "rocksdb":
		return "ROCKSDB"
	case "sequence":
		return "SEQUENCE"
	}
	return s
}
