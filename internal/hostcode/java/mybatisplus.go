package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// Entity is a MyBatis-Plus entity class as its declaration maps it to the
// database: the table of @TableName, the columns of @TableField and
// @TableId where they differ from the default camelCase → snake_case, and
// the @Version property the OptimisticLockerInnerInterceptor compares.
type Entity struct {
	// Class is the simple class name (ProductSkuDO), Package its package.
	Class, Package string
	// Table is the @TableName value; empty when the class does not name one.
	Table string
	// Columns maps a property to the column @TableField or @TableId names.
	Columns map[string]string
	// NotColumns are the properties @TableField(exist = false) keeps out of
	// the table.
	NotColumns map[string]bool
	// Key is the @TableId property; empty means "id".
	Key string
	// Version is the @Version property; empty when the entity has none.
	Version string
}

// EntityIndex holds the MyBatis-Plus entity classes of every Java file of a
// run, by simple class name, so that a write in one file finds the table
// and columns its entity class declares in another.
type EntityIndex struct {
	byName map[string][]*Entity
	// HasTable reports whether the schema has a table; nil when there is
	// no schema. It decides whether a DO/PO/Entity suffix is part of the
	// default table name.
	HasTable func(name string) bool
}

// NewEntityIndex indexes entities; hasTable may be nil.
func NewEntityIndex(entities []*Entity, hasTable func(string) bool) *EntityIndex {
	ix := &EntityIndex{byName: map[string][]*Entity{}, HasTable: hasTable}
	for _, e := range entities {
		ix.byName[e.Class] = append(ix.byName[e.Class], e)
	}
	return ix
}

// lookup returns the entity class named class: the one of that package
// when several share the simple name, nil when none or no one is known.
func (ix *EntityIndex) lookup(class, pkg string) *Entity {
	if ix == nil {
		return nil
	}
	es := ix.byName[class]
	if len(es) == 1 {
		return es[0]
	}
	for _, e := range es {
		if pkg != "" && e.Package == pkg {
			return e
		}
	}
	return nil
}

// plusEntity is what a write knows of its entity class: the declaration
// when some file of the run holds it, and the table it writes.
type plusEntity struct {
	class string
	decl  *Entity
	table string
}

// entity resolves class as the file at x names it: the declaration an
// import or the index points to, and its table — @TableName, else the
// default snake_case of the class name, without a DO/PO/Entity suffix
// when the schema has the shorter table and not the longer.
func (x *javaFile) entity(class string) plusEntity {
	pe := plusEntity{class: class}
	if class == "" {
		return pe
	}
	x.usedEntities = true
	pe.decl = x.entities.lookup(class, x.imports[class])
	if pe.decl != nil && pe.decl.Table != "" {
		pe.table = pe.decl.Table
		return pe
	}
	pe.table = stmt.PropertyColumn(strings.ToLower(class[:1]) + class[1:])
	if x.entities == nil || x.entities.HasTable == nil || x.entities.HasTable(pe.table) {
		return pe
	}
	for _, suffix := range []string{"DO", "PO", "Entity"} {
		if short, ok := strings.CutSuffix(class, suffix); ok && short != "" {
			t := stmt.PropertyColumn(strings.ToLower(short[:1]) + short[1:])
			if x.entities.HasTable(t) {
				pe.table = t
			}
		}
	}
	return pe
}

// column is the column property p of the entity maps to.
func (pe plusEntity) column(p string) string {
	if pe.decl != nil {
		if c, ok := pe.decl.Columns[p]; ok {
			return c
		}
	}
	return stmt.PropertyColumn(p)
}

// isColumn reports whether property p is a column of the table.
func (pe plusEntity) isColumn(p string) bool {
	return pe.decl == nil || !pe.decl.NotColumns[p]
}

// keyColumn is the column updateById names in its WHERE.
func (pe plusEntity) keyColumn() string {
	if pe.decl != nil && pe.decl.Key != "" {
		return pe.column(pe.decl.Key)
	}
	return "id"
}
