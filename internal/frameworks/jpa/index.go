package jpa

import (
	"strings"
	"sync"
	"unicode"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// Index holds the JPA entities and Spring Data repositories of every
// Java file a run read: a repository's JPQL names entities declared
// elsewhere, and a service's save(entity) writes an entity whose @Version
// and columns its class declares. Built once before the statements are
// parsed and read-only after, so that the workers share it.
type Index struct {
	// byName holds the entities by the name JPQL uses, bySimple by simple
	// class name (several modules may each have a Product), byClass by
	// qualified class name.
	byName, bySimple map[string][]*Mapping
	byClass          map[string]*Mapping
	// why says why an entity has no mapping, by entity.
	why   map[*Entity]string
	repos map[string]*Repository // by qualified interface
	// simple maps an interface's simple name to the qualified ones.
	simple map[string][]string
	// rendered holds the files whose JPQL render added to their
	// fragments, so that a file judged again is not given it twice.
	rendered sync.Map
}

// NewIndex indexes the JPA declarations of files (nil entries skipped).
func NewIndex(files []*java.File) *Index {
	ix := &Index{
		byName: map[string][]*Mapping{}, bySimple: map[string][]*Mapping{},
		byClass: map[string]*Mapping{}, why: map[*Entity]string{},
		repos: map[string]*Repository{}, simple: map[string][]string{},
	}
	classes := map[string]*Entity{}
	simple := map[string][]*Entity{}
	var entities []*Entity
	for _, f := range files {
		d := Of(f)
		if d == nil {
			continue
		}
		for i := range d.Entities {
			e := &d.Entities[i]
			if _, dup := classes[e.Qualified]; dup {
				continue
			}
			classes[e.Qualified] = e
			simple[e.Class] = append(simple[e.Class], e)
			entities = append(entities, e)
		}
		for i := range d.Repositories {
			r := &d.Repositories[i]
			if _, dup := ix.repos[r.Interface]; dup {
				continue
			}
			ix.repos[r.Interface] = r
			s := simpleName(r.Interface)
			ix.simple[s] = append(ix.simple[s], r.Interface)
		}
	}
	// The class a subclass extends: by its qualified name, else the one
	// class of that simple name nearest to the subclass.
	super := func(c *Entity) *Entity {
		if e := classes[c.Super]; e != nil {
			return e
		}
		return nearest(simple[simpleName(c.Super)], packageOf(c.Qualified), func(e *Entity) string { return e.Qualified })
	}
	// Own fields first, then the mapped superclasses' (a subclass field of
	// the same name wins); the columns once every entity's @Id is known.
	for _, e := range entities {
		if e.MappedSuperclass {
			continue
		}
		m := &Mapping{Entity: e, Table: springName(e.Table), Fields: map[string]MappedField{}}
		if e.Table == "" {
			m.Table = springName(e.Name)
		}
		why := ""
		for c, depth := e, 0; c != nil && depth < 16; depth++ {
			for _, f := range c.Fields {
				if _, ok := m.Fields[f.Name]; !ok {
					m.Fields[f.Name] = MappedField{Field: f}
				}
			}
			m.inherit(c)
			if c.Super == "" {
				break
			}
			sup := super(c)
			if sup == nil {
				break // a class of a library: its fields stay unknown
			}
			if !sup.MappedSuperclass {
				why = "entity " + e.Name + " extends entity " + sup.Name + ", whose inheritance guard does not map"
				break
			}
			c = sup
		}
		if e.Inheritance {
			why = "entity " + e.Name + " declares @Inheritance, which guard does not map"
		}
		if why != "" {
			ix.why[e] = why
		}
		ix.byName[e.Name] = append(ix.byName[e.Name], m)
		ix.bySimple[e.Class] = append(ix.bySimple[e.Class], m)
		ix.byClass[e.Qualified] = m
	}
	for _, m := range ix.byClass {
		ix.columns(m)
	}
	return ix
}

// simpleName is the last element of a dotted name.
func simpleName(name string) string {
	return name[strings.LastIndexByte(name, '.')+1:]
}

// packageOf is the package of a qualified class name, "" for a simple one.
func packageOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return ""
}

// nearest returns the one candidate whose package shares the most leading
// elements with pkg (a module's own class in a build of several), nil when
// there is none or two tie.
func nearest[T any](cands []T, pkg string, qualified func(T) string) T {
	var best T
	bestLen, tie := -1, false
	for _, c := range cands {
		n := commonElements(packageOf(qualified(c)), pkg)
		switch {
		case n > bestLen:
			best, bestLen, tie = c, n, false
		case n == bestLen:
			tie = true
		}
	}
	if tie {
		var zero T
		return zero
	}
	return best
}

// commonElements counts the leading dotted elements a and b share.
func commonElements(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// columns names the column of every field of m.
func (ix *Index) columns(m *Mapping) {
	pkg := packageOf(m.Entity.Qualified)
	for name, f := range m.Fields {
		if f.Version {
			m.Version = name
		}
		switch {
		case f.ToMany || f.Embedded:
		case f.Relation:
			target := ix.class(f.Type, pkg)
			if target != nil {
				f.TargetID = idField(target)
			}
			switch {
			case f.Field.Column != "":
				f.Column = springName(f.Field.Column)
			case target != nil && f.TargetID != "":
				// Spring's implicit join column: the property, '_', the
				// referenced primary key column.
				f.Column = springName(name) + "_" + springName(idColumn(target))
			}
		case f.Field.Column != "":
			f.Column = springName(f.Field.Column)
		default:
			f.Column = springName(name)
		}
		m.Fields[name] = f
	}
}

// idField returns the @Id field of m, "" when it has none or several.
func idField(m *Mapping) string {
	id := ""
	for name, f := range m.Fields {
		if f.ID {
			if id != "" {
				return ""
			}
			id = name
		}
	}
	return id
}

// idColumn returns the column of m's @Id field, before the columns of m
// are all named.
func idColumn(m *Mapping) string {
	f := m.Fields[idField(m)]
	if f.Field.Column != "" && !f.Relation {
		return f.Field.Column
	}
	return idField(m)
}

// class returns the entity of class name (qualified, or simple), the one
// nearest to package pkg when several have that simple name.
func (ix *Index) class(name, pkg string) *Mapping {
	if m := ix.byClass[name]; m != nil {
		return m
	}
	return nearest(ix.bySimple[simpleName(name)], pkg, mappingClass)
}

// mappingClass is the qualified class of a mapping.
func mappingClass(m *Mapping) string { return m.Entity.Qualified }

// entities returns the resolver of the JPQL entity names of a repository in
// package pkg: by entity name, else by class name, the nearest when
// several modules have one.
func (ix *Index) entities(pkg string) Resolver {
	return func(name string) (*Mapping, string) {
		if m := ix.byClass[name]; m != nil && ix.why[m.Entity] == "" {
			return m, "" // a repository's qualified domain type
		}
		ms := ix.byName[name]
		if len(ms) == 0 {
			ms = ix.bySimple[name]
		}
		if len(ms) == 0 {
			return nil, "no @Entity named " + name + " in the files read"
		}
		m := nearest(ms, pkg, mappingClass)
		if m == nil {
			return nil, "several @Entity classes are named " + name
		}
		if why := ix.why[m.Entity]; why != "" {
			return nil, why
		}
		return m, ""
	}
}

// Repository returns the repository interface named name (qualified, or a
// simple name one interface of the run has), nil when none was read.
func (ix *Index) Repository(name string) *Repository {
	if r := ix.repos[name]; r != nil {
		return r
	}
	if qs := ix.simple[name]; len(qs) == 1 && !strings.Contains(name, ".") {
		return ix.repos[qs[0]]
	}
	return nil
}

// Render appends to f the fragments of its JPQL @Query methods; a nil
// index (the first pass, before every entity is known) renders none.
func (ix *Index) Render(f *java.File) {
	d := Of(f)
	if ix == nil || d == nil {
		return
	}
	if _, done := ix.rendered.LoadOrStore(f, true); done {
		return
	}
	added := false
	for i := range d.Repositories {
		r := &d.Repositories[i]
		for k := range r.Queries {
			f.Fragments = append(f.Fragments, Render(&r.Queries[k], f.Path, r, ix.entities(packageOf(r.Interface))))
			added = true
		}
	}
	if added {
		stmt.SortFragments(f.Fragments)
	}
}

// ResolveCalls prepares the repository calls of f for the rules: a save
// whose entity guard knows gets its table and columns; one whose entity
// has @Version (the UPDATE compares the version read), was not read in the
// method, was read under a @Lock, or is unknown is dropped, as is a call
// of a method of a repository the run did not read.
func (ix *Index) ResolveCalls(f *java.File) {
	if f == nil {
		return
	}
	kept := f.MapperCalls[:0]
	for _, c := range f.MapperCalls {
		switch c.Framework {
		case stmt.FrameworkSpringData:
			if ix.Repository(c.Mapper) == nil {
				continue
			}
		case stmt.FrameworkJPA, stmt.FrameworkJPAFlush:
			if !ix.resolveSave(&c) {
				continue
			}
		}
		kept = append(kept, c)
	}
	f.MapperCalls = kept
}

// springName is the column or table name Spring Boot's default physical
// naming strategy (CamelCaseToUnderscoresNamingStrategy) gives a logical
// name: dots become underscores, an underscore goes between a lower-case
// letter or digit and an upper-case letter followed by a lower-case one or
// a digit, and the result is lower case. Quotes are dropped.
func springName(name string) string {
	name = strings.Trim(name, "`\"")
	b := []rune(strings.ReplaceAll(name, ".", "_"))
	lowerOrDigit := func(r rune) bool { return unicode.IsLower(r) || unicode.IsDigit(r) }
	for i := 1; i < len(b)-1; i++ {
		if lowerOrDigit(b[i-1]) && unicode.IsUpper(b[i]) && lowerOrDigit(b[i+1]) {
			b = append(b[:i], append([]rune{'_'}, b[i:]...)...)
			i++
		}
	}
	return strings.ToLower(string(b))
}
