package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// Declarations is what a Java file declares for JPA and Spring Data: the
// entity classes guard maps JPQL and entity writes through, and the
// repository interfaces with their @Query methods. guard lint indexes them
// across the files of a run, since a repository, its entity and the
// service that calls it stand in different files.
type Declarations struct {
	Entities     []Entity
	Repositories []Repository
}

// Of returns the JPA declarations the Java reader found in f; nil when
// f declares none.
func Of(f *java.File) *Declarations {
	if f == nil {
		return nil
	}
	d, _ := f.Frameworks[stmt.FrameworkJPA].(*Declarations)
	return d
}

// HasJPQL reports whether d holds a JPQL @Query guard renders once the
// entities of the run are known; false for nil.
func (d *Declarations) HasJPQL() bool {
	if d == nil {
		return false
	}
	for _, r := range d.Repositories {
		if len(r.Queries) > 0 {
			return true
		}
	}
	return false
}

// Entity is a class annotated @Entity, or a @MappedSuperclass whose fields
// its entity subclasses inherit.
type Entity struct {
	// Class is the simple class name; Qualified adds the file's package.
	Class, Qualified string
	// Name is the entity name JPQL uses: @Entity(name = …), else Class.
	Name string
	// Table is @Table(name = …) as written, empty when the class has none.
	Table string
	// Super is the class it extends, qualified by the file's import or
	// package (as written when neither says); empty for none.
	Super string
	// MappedSuperclass is set for a @MappedSuperclass: not an entity of
	// its own, its fields belong to the tables of its subclasses.
	MappedSuperclass bool
	// Inheritance is set when the class says @Inheritance: its subclasses
	// may stand in tables of their own.
	Inheritance bool
	// DynamicUpdate is set when the class says Hibernate's @DynamicUpdate:
	// its UPDATE writes only the columns that changed, not every column.
	DynamicUpdate bool
	Fields        []Field
	Line          int
	// Mutations are the assignments to its fields that its own methods
	// make (`this.quantity -= n` in decrease), for the entity writes that
	// call them.
	Mutations []Mutation
}

// Field is a persistent field (or an annotated getter's property) of an
// entity.
type Field struct {
	Name string
	// Type is the declared type without type arguments, qualified like
	// Entity.Super for an association.
	Type string
	// Column is @Column(name = …) or, for an association, @JoinColumn(name
	// = …) as written; empty when the naming strategy names it.
	Column string
	// ID marks @Id, Version marks @Version (javax or jakarta.persistence).
	ID, Version bool
	// Relation marks @ManyToOne/@OneToOne/@OneToMany/@ManyToMany; Embedded
	// marks @Embedded/@EmbeddedId.
	Relation, Embedded bool
	// ToMany marks @OneToMany/@ManyToMany: no column in the entity's table.
	ToMany bool
}

// Mutation is an assignment to a field of an entity in one of its
// methods: `this.quantity -= n` in `decrease(long n)`.
type Mutation struct {
	Method string
	java.Assignment
}

// The packages of the annotations JPA and Spring Data read, and of
// Hibernate's own.
const (
	springDataJPA = "org.springframework.data.jpa.repository"
	hibernate     = "org.hibernate.annotations"
)

// persistencePackages are JPA's packages, before and after Jakarta EE.
var persistencePackages = []string{"javax.persistence", "jakarta.persistence"}

func init() {
	java.Register(java.Framework{Name: stmt.FrameworkJPA, Declarations: declarations,
		Calls: []func(java.Syntax) []stmt.MapperCall{repositoryCalls, flushes}, ReadOne: readOne, ReadMany: readMany})
}

// declarations is the file's JPA declarations as Framework.Declarations
// keeps them: nil, not a nil *Declarations, for none.
func declarations(s java.Syntax) any {
	if d := read(s); d != nil {
		return d
	}
	return nil
}

// scan reads the JPA declarations of one file.
type scan struct {
	s java.Syntax
	// wild are the packages the file imports with .*.
	wild map[string]bool
	pkg  string
}

// read reads the file's entities and repositories; a native @Query becomes
// a fragment of the file here, a JPQL one waits for the run's entities.
func read(s java.Syntax) *Declarations {
	sc := &scan{s: s, wild: map[string]bool{}, pkg: s.Package()}
	persistence, springData := false, false
	for _, name := range s.Imports() {
		if p, ok := strings.CutSuffix(name, ".*"); ok {
			sc.wild[p] = true
		}
		for _, p := range persistencePackages {
			persistence = persistence || strings.HasPrefix(name, p+".")
		}
		springData = springData || strings.HasPrefix(name, "org.springframework.data.")
	}
	if !persistence && !springData {
		return nil
	}
	out := &Declarations{}
	var walk func([]java.TypeDecl)
	walk = func(ts []java.TypeDecl) {
		for _, t := range ts {
			switch t.Kind {
			case "class":
				if e, ok := sc.entity(t); ok {
					out.Entities = append(out.Entities, e)
				}
			case "interface":
				if r, ok := sc.repository(t); ok {
					out.Repositories = append(out.Repositories, r)
				}
			}
			walk(t.Inner)
		}
	}
	walk(s.Types())
	if len(out.Entities) == 0 && len(out.Repositories) == 0 {
		return nil
	}
	return out
}

// from reports whether annotation a is name of one of pkgs: written
// qualified, imported by name, or by a wildcard import.
func (sc *scan) from(a java.Annotation, name string, pkgs ...string) bool {
	for _, p := range pkgs {
		if a.Name == p+"."+name {
			return true
		}
	}
	if a.Name != name {
		return false
	}
	for _, p := range pkgs {
		if sc.wild[p] {
			return true
		}
	}
	return false
}

// name returns the string constant attribute name of annotation a gives,
// and whether it has one this file can read.
func (sc *scan) name(a java.Annotation) (string, bool) {
	v, ok := sc.s.AnnotationValue(a, "name")
	if !ok || !v.Known || !v.Stringy {
		return "", false
	}
	return v.Text.String(), true
}

// entity reads class t when it is an @Entity or a @MappedSuperclass.
func (sc *scan) entity(t java.TypeDecl) (Entity, bool) {
	e := Entity{Class: t.Name, Line: t.Line}
	isEntity := false
	for _, a := range t.Annotations {
		switch {
		case sc.from(a, "Entity", persistencePackages...):
			isEntity = true
			if name, ok := sc.name(a); ok {
				e.Name = name
			}
		case sc.from(a, "MappedSuperclass", persistencePackages...):
			e.MappedSuperclass = true
		case sc.from(a, "Table", persistencePackages...):
			if name, ok := sc.name(a); ok {
				e.Table = name
			}
		case sc.from(a, "Inheritance", persistencePackages...):
			e.Inheritance = true
		case sc.from(a, "DynamicUpdate", hibernate):
			e.DynamicUpdate = true
		}
	}
	if !isEntity && !e.MappedSuperclass {
		return Entity{}, false
	}
	if e.Name == "" {
		e.Name = e.Class
	}
	e.Qualified = e.Class
	if sc.pkg != "" {
		e.Qualified = sc.pkg + "." + e.Class
	}
	if len(t.Extends) > 0 {
		e.Super = simpleName(t.Extends[0].Name)
	}
	members := sc.s.Members(t)
	e.Super = sc.qualify(e.Super)
	for _, m := range members {
		if f, ok := sc.field(m); ok {
			e.Fields = append(e.Fields, f)
		}
	}
	e.Mutations = sc.mutations(t, members, e)
	for i := range e.Fields {
		if e.Fields[i].Relation {
			e.Fields[i].Type = sc.qualify(e.Fields[i].Type)
		}
	}
	return e, true
}

// mutations returns the assignments the methods of entity class t make to
// its persistent fields, and, when it extends a class, to the fields it
// does not declare: those are inherited, and the index keeps the ones a
// mapped superclass declares.
func (sc *scan) mutations(t java.TypeDecl, members []java.Member, e Entity) []Mutation {
	persistent, declared := map[string]bool{}, map[string]bool{}
	for _, f := range e.Fields {
		persistent[f.Name] = true
	}
	for _, m := range members {
		declared[m.Name] = declared[m.Name] || !m.Method
	}
	field := func(name string) bool { return persistent[name] || e.Super != "" && !declared[name] }
	var out []Mutation
	for _, m := range members {
		if m.HasBody() && m.Name != t.Name {
			for _, a := range sc.s.Assignments(m, field) {
				out = append(out, Mutation{Method: m.Name, Assignment: a})
			}
		}
	}
	return out
}

// qualify returns the class a simple name of the file refers to: through
// its import, else in its package. A dotted name is kept.
func (sc *scan) qualify(name string) string {
	if name == "" || strings.Contains(name, ".") {
		return name
	}
	if p := sc.s.Imported(name); p != "" {
		return p + "." + name
	}
	if len(sc.wild) > 0 || sc.pkg == "" {
		return name // a wildcard import may bring it: guard does not pick
	}
	return sc.pkg + "." + name
}

// mapping are the annotations that make a getter a mapped property.
var mapping = []string{"Column", "Id", "EmbeddedId", "Version", "JoinColumn", "ManyToOne", "OneToOne", "OneToMany", "ManyToMany", "Embedded", "Basic", "Enumerated"}

// field reads member m as a persistent field of an entity: a field that is
// not static or transient, or a getter that carries a mapping annotation
// (property access): `@Column(name = "QTY") public int getQuantity()`.
func (sc *scan) field(m java.Member) (Field, bool) {
	if m.Name == "" || m.Static || m.Transient {
		return Field{}, false
	}
	f := Field{Name: m.Name, Type: m.Type}
	if m.Method {
		prop := ""
		for _, p := range []string{"get", "is"} {
			if rest, ok := strings.CutPrefix(m.Name, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
				prop = strings.ToLower(rest[:1]) + rest[1:]
			}
		}
		mapped := false
		for _, a := range m.Annotations {
			for _, name := range mapping {
				mapped = mapped || sc.from(a, name, persistencePackages...)
			}
		}
		if !m.HasBody() || !m.NoParams || prop == "" || !mapped || m.Result == "" && m.Type == m.Name {
			return Field{}, false
		}
		f.Name = prop
	}
	p := persistencePackages
	for _, a := range m.Annotations {
		switch {
		case sc.from(a, "Transient", p...):
			return Field{}, false
		case sc.from(a, "Id", p...) || sc.from(a, "EmbeddedId", p...):
			f.ID = true
			f.Embedded = f.Embedded || strings.HasSuffix(a.Name, "EmbeddedId")
		case sc.from(a, "Version", p...):
			f.Version = true
		case sc.from(a, "Embedded", p...):
			f.Embedded = true
		case sc.from(a, "ManyToOne", p...) || sc.from(a, "OneToOne", p...):
			f.Relation = true
		case sc.from(a, "OneToMany", p...) || sc.from(a, "ManyToMany", p...):
			f.Relation, f.ToMany = true, true
		case sc.from(a, "Column", p...) || sc.from(a, "JoinColumn", p...):
			if name, ok := sc.name(a); ok {
				f.Column = name
			}
		}
	}
	return f, true
}
