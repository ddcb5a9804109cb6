package tkmybatis

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// entity is a class as tk.mybatis maps it: the table, and the columns of
// its fields and those of its superclasses, the key first.
type entity struct {
	table   string
	columns []column
	// keys are the @Id columns; tk.mybatis takes every column as the key
	// of an entity without one.
	keys []string
	// version is the @Version column, empty when there is none.
	version string
}

// column is a persistent field and the column it maps to.
type column struct {
	property, name string
}

// entityOf maps class name: @Table(name), else the class name in
// snake_case; the fields of the class and of its superclasses the run
// declares, but for static, transient and @Transient ones.
func (l *linker) entityOf(name string) *entity {
	d := l.lookup(name)
	if d == nil || d.Kind != "class" {
		return nil
	}
	e := &entity{table: defaultName(d.Name)}
	for _, a := range d.Annotations {
		if a.Is("Table", persistence...) && a.Args["name"] != "" {
			e.table = strings.Trim(a.Args["name"], "`")
		}
	}
	seen := map[string]bool{}
	for c, depth := d, 0; c != nil && depth < 8; depth++ {
		for _, f := range c.Fields {
			if seen[f.Name] {
				continue
			}
			seen[f.Name] = true
			col, key, version, ok := mapField(f)
			if !ok {
				continue
			}
			e.columns = append(e.columns, column{f.Name, col})
			if key {
				e.keys = append(e.keys, col)
			}
			if version {
				e.version = col
			}
		}
		if len(c.Extends) == 0 {
			break
		}
		c = l.lookup(c.Extends[0].Name)
		if c != nil && c.Kind != "class" {
			break
		}
	}
	if len(e.keys) == 0 {
		for _, c := range e.columns {
			e.keys = append(e.keys, c.name)
		}
	}
	return e
}

// mapField returns the column field f maps to and whether it is a key or
// the version; ok is false for a field that is no column.
func mapField(f java.FieldDecl) (col string, key, version, ok bool) {
	if f.Static || f.Transient {
		return "", false, false, false
	}
	col = stmt.PropertyColumn(f.Name)
	for _, a := range f.Annotations {
		switch {
		case a.Is("Transient", persistence...):
			return "", false, false, false
		case a.Is("Column", persistence...) && a.Args["name"] != "":
			col = strings.Trim(a.Args["name"], "`")
		case a.Is("ColumnType", tkVersion...) && a.Args["column"] != "":
			col = strings.Trim(a.Args["column"], "`")
		case a.Is("Id", persistence...):
			key = true
		case a.Is("Version", tkVersion...):
			version = true
		}
	}
	return col, key, version, true
}

// defaultName is tk.mybatis's default (camelhump) name of a class:
// OmcCart → omc_cart.
func defaultName(class string) string {
	return stmt.PropertyColumn(strings.ToLower(class[:1]) + class[1:])
}

// statements renders the writes the library generates for mapper m, each
// at the line of the mapper interface, where its SQL comes from.
func (m *mapper) statements() []*stmt.Fragment {
	e := m.entity
	var set, where []string
	for _, c := range e.columns {
		if c.name == e.version {
			set = append(set, c.name+" = ?") // the next version
		} else if !containsName(e.keys, c.name) {
			set = append(set, c.name+" = ?")
		}
	}
	if len(set) == 0 {
		return nil // nothing the library would update
	}
	for _, k := range e.keys {
		where = append(where, k+" = ?")
	}
	if e.version != "" && !containsName(e.keys, e.version) {
		where = append(where, e.version+" = ?")
	}
	update := "UPDATE " + e.table + " SET " + strings.Join(set, ", ")
	byKey := update + " WHERE " + strings.Join(where, " AND ")
	out := []*stmt.Fragment{
		m.fragment("updateByPrimaryKey", byKey, false),
		m.fragment("updateByPrimaryKeySelective", byKey, false),
		// A ByExample WHERE is the Example's criteria, which the caller
		// builds: the text holds none (see Fragment.WhereFromCaller).
		m.fragment("updateByExample", update, true),
		m.fragment("updateByExampleSelective", update, true),
		m.fragment("deleteByExample", "DELETE FROM "+e.table, true),
	}
	return out
}

func (m *mapper) fragment(id, sql string, fromCaller bool) *stmt.Fragment {
	line := m.iface.Line
	return &stmt.Fragment{
		File: m.iface.file, Lang: stmt.LangJava, SQL: sql, Line: line, EndLine: line, Col: 1,
		Segments:  []stmt.Segment{{Off: 0, Line: line, Col: 1}},
		Namespace: m.iface.Qualified, ID: id, Builder: builder, WhereFromCaller: fromCaller,
	}
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}
