package java

import (
	"strings"
)

// JPAFile is what a Java file declares for JPA and Spring Data: the entity
// classes guard maps JPQL and entity writes through, and the repository
// interfaces with their @Query methods. guard lint indexes them across the
// files of a run, since a repository, its entity and the service that calls
// it stand in different files.
type JPAFile struct {
	Entities     []JPAEntity
	Repositories []JPARepository
}

// HasJPQL reports whether f holds a JPQL @Query guard renders once the
// entities of the run are known; false for nil.
func (f *JPAFile) HasJPQL() bool {
	if f == nil {
		return false
	}
	for _, r := range f.Repositories {
		if len(r.Queries) > 0 {
			return true
		}
	}
	return false
}

// JPAEntity is a class annotated @Entity, or a @MappedSuperclass whose
// fields its entity subclasses inherit.
type JPAEntity struct {
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
	Fields      []JPAField
	Line        int
	// Mutations are the assignments to its fields that its own methods
	// make (`this.quantity -= n` in decrease), for the entity writes that
	// call them.
	Mutations []JPAMutation
}

// JPAField is a persistent field (or an annotated getter's property) of an
// entity.
type JPAField struct {
	Name string
	// Type is the declared type without type arguments, qualified like
	// JPAEntity.Super for an association.
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

// JPARepository is a Spring Data repository interface of the file.
type JPARepository struct {
	// Interface is the qualified interface name.
	Interface string
	// Entity is the domain type its base interface names
	// (JpaRepository<Product, Long> → com.x.model.Product), qualified like
	// JPAEntity.Super; empty when not seen.
	Entity string
	// Queries are its @Query methods whose JPQL guard renders once the
	// entities of the run are known (native ones are Fragments already).
	Queries []JPAQuery
	// Locked are its methods annotated @Lock: their reads lock the row.
	Locked []string
}

// JPAQuery is a JPQL @Query of a repository method.
type JPAQuery struct {
	// Method is the annotated method; Returns its declared result type.
	Method, Returns string
	// Modifying reports @Modifying on the method.
	Modifying bool
	// Line and Col are the @Query annotation's; EndLine its last line.
	Line, Col, EndLine int
	// Unchecked says why the value cannot be read (constants of other
	// files); text is then empty.
	Unchecked string
	JPQL      Text
}

// The packages of the annotations JPA and Spring Data read.
const (
	javaSpringDataJPA = "org.springframework.data.jpa.repository"
)

// javaPersistencePackages are JPA's packages, before and after Jakarta EE.
var javaPersistencePackages = []string{"javax.persistence", "jakarta.persistence"}

// javaSpringDataBases are the Spring Data interfaces a repository extends
// whose first type argument is its domain type.
var javaSpringDataBases = map[string]bool{
	"Repository": true, "CrudRepository": true, "ListCrudRepository": true, "PagingAndSortingRepository": true,
	"ListPagingAndSortingRepository": true, "JpaRepository": true, "JpaRepositoryImplementation": true,
}

// jpaScan reads the JPA declarations of one file.
type jpaScan struct {
	x *javaFile
	// wild are the packages the file imports with .*.
	wild map[string]bool
	pkg  string
}

// jpa reads the file's entities and repositories; a native @Query becomes
// a Fragment here, a JPQL one waits for the run's entities.
func (x *javaFile) jpa() *JPAFile {
	sc := &jpaScan{x: x, wild: map[string]bool{}}
	persistence, springData := false, false
	for i, t := range x.toks {
		if t.kind != javaIdent || x.encl[i] >= 0 {
			continue
		}
		if t.text != "import" && t.text != "package" {
			continue
		}
		var parts []string
		for k := i + 1; k < len(x.toks) && !x.is(k, ";"); k++ {
			if !x.is(k, "static") {
				parts = append(parts, x.toks[k].text)
			}
		}
		name := strings.Join(parts, "")
		if t.text == "package" {
			sc.pkg = name
			continue
		}
		if p, ok := strings.CutSuffix(name, ".*"); ok {
			sc.wild[p] = true
		}
		for _, p := range javaPersistencePackages {
			persistence = persistence || strings.HasPrefix(name, p+".")
		}
		springData = springData || strings.HasPrefix(name, "org.springframework.data.")
	}
	if !persistence && !springData {
		return nil
	}
	out := &JPAFile{}
	for i, t := range x.toks {
		if t.kind != javaIdent || x.is(i-1, ".") || !x.isIdent(i+1) {
			continue
		}
		switch t.text {
		case "class":
			if e, ok := sc.entity(i); ok {
				out.Entities = append(out.Entities, e)
			}
		case "interface":
			if !x.is(i-1, "@") {
				if r, ok := sc.repository(i); ok {
					out.Repositories = append(out.Repositories, r)
				}
			}
		}
	}
	if len(out.Entities) == 0 && len(out.Repositories) == 0 {
		return nil
	}
	return out
}

// from reports whether the annotation at token k is name of one of pkgs:
// written qualified, imported by name, or by a wildcard import.
func (sc *jpaScan) from(k int, name string, pkgs ...string) bool {
	t := sc.x.toks[k]
	if t.kind != javaAnnot {
		return false
	}
	for _, p := range pkgs {
		if t.text == p+"."+name {
			return true
		}
	}
	if t.text != name {
		return false
	}
	if imp, ok := sc.x.imports[name]; ok {
		for _, p := range pkgs {
			if imp == p {
				return true
			}
		}
		return false
	}
	for _, p := range pkgs {
		if sc.wild[p] {
			return true
		}
	}
	return false
}

// annotationString returns the string constant of attribute attr (value
// for the positional one) of the annotation at token k, and whether it has
// one this file can read.
func (sc *jpaScan) annotationString(k int, attr string) (Text, bool) {
	x := sc.x
	if !x.is(k+1, "(") {
		return nil, false
	}
	s, e := sc.attribute(k, attr)
	if s < 0 {
		return nil, false
	}
	ev := x.eval(s, e, 0)
	for _, r := range ev.refs {
		r.usedOther = true
	}
	if !ev.known() || !ev.stringy {
		return nil, false
	}
	return ev.text, true
}

// attribute returns the token range of attribute attr of the annotation at
// token k; "value" also finds the positional argument.
func (sc *jpaScan) attribute(k int, attr string) (int, int) {
	x := sc.x
	if !x.is(k+1, "(") {
		return -1, -1
	}
	closing := x.match[k+1]
	if attr == "value" {
		return x.annotationValue(k+2, closing)
	}
	for _, el := range x.split(k+2, closing, ",") {
		if x.isIdent(el.s) && x.toks[el.s].text == attr && x.is(el.s+1, "=") {
			return el.s + 2, el.e
		}
	}
	return -1, -1
}

// entity reads the class declared at the "class" token k when it is an
// @Entity or a @MappedSuperclass.
func (sc *jpaScan) entity(k int) (JPAEntity, bool) {
	x := sc.x
	e := JPAEntity{Class: x.toks[k+1].text, Line: x.toks[k+1].line}
	isEntity := false
	for _, a := range sc.x.annotationTokens(k) {
		switch {
		case sc.from(a, "Entity", javaPersistencePackages...):
			isEntity = true
			if name, ok := sc.annotationString(a, "name"); ok {
				e.Name = name.String()
			}
		case sc.from(a, "MappedSuperclass", javaPersistencePackages...):
			e.MappedSuperclass = true
		case sc.from(a, "Table", javaPersistencePackages...):
			if name, ok := sc.annotationString(a, "name"); ok {
				e.Table = name.String()
			}
		case sc.from(a, "Inheritance", javaPersistencePackages...):
			e.Inheritance = true
		}
	}
	if !isEntity && !e.MappedSuperclass {
		return JPAEntity{}, false
	}
	if e.Name == "" {
		e.Name = e.Class
	}
	e.Qualified = e.Class
	if sc.pkg != "" {
		e.Qualified = sc.pkg + "." + e.Class
	}
	body := -1
	for j := k + 2; j < len(x.toks); j++ {
		if x.is(j, "extends") && x.isIdent(j+1) {
			e.Super = x.toks[j+1].text
			for x.is(j+2, ".") && x.isIdent(j+3) {
				j += 2
				e.Super = x.toks[j+1].text
			}
		}
		if x.is(j, "{") {
			body = j
			break
		}
	}
	if body < 0 {
		return JPAEntity{}, false
	}
	e.Super = sc.qualify(e.Super)
	e.Fields = sc.fields(body)
	e.Mutations = sc.mutations(body, e.Class, e.Fields)
	for i := range e.Fields {
		if e.Fields[i].Relation {
			e.Fields[i].Type = sc.qualify(e.Fields[i].Type)
		}
	}
	return e, true
}

// qualify returns the class a simple name of the file refers to: through
// its import, else in its package. A dotted name is kept.
func (sc *jpaScan) qualify(name string) string {
	if name == "" || strings.Contains(name, ".") {
		return name
	}
	if p, ok := sc.x.imports[name]; ok {
		return p + "." + name
	}
	if len(sc.wild) > 0 || sc.pkg == "" {
		return name // a wildcard import may bring it: guard does not pick
	}
	return sc.pkg + "." + name
}

// jpaMapping are the annotations that make a getter a mapped property.
var jpaMapping = []string{"Column", "Id", "EmbeddedId", "Version", "JoinColumn", "ManyToOne", "OneToOne", "OneToMany", "ManyToMany", "Embedded", "Basic", "Enumerated"}

// fields reads the persistent members of the class body opened at token
// body: fields that are not static or transient, and getters that carry a
// mapping annotation (property access).
func (sc *jpaScan) fields(body int) []JPAField {
	x := sc.x
	var out []JPAField
	start := body + 1
	for k := body + 1; k < x.match[body]; k++ {
		switch {
		case x.is(k, "(") || x.is(k, "["):
			k = x.match[k]
		case x.is(k, "{"):
			// A method body, an initialiser or a nested type ends a member.
			if f, ok := sc.getter(start, k); ok {
				out = append(out, f)
			}
			k = x.match[k]
			start = k + 1
		case x.is(k, ";"):
			if f, ok := sc.field(start, k); ok {
				out = append(out, f)
			}
			start = k + 1
		}
	}
	return out
}

// member reads the annotations and modifiers of the member declaration
// [s, e) and returns the first token after them.
func (sc *jpaScan) member(s, e int, f *JPAField) (int, bool) {
	x := sc.x
	skip := false
	k := s
	for ; k < e; k++ {
		t := x.toks[k]
		if t.kind == javaIdent && javaModifiers[t.text] {
			skip = skip || t.text == "static" || t.text == "transient"
			continue
		}
		if t.kind != javaAnnot {
			break
		}
		p := javaPersistencePackages
		switch {
		case sc.from(k, "Transient", p...):
			skip = true
		case sc.from(k, "Id", p...) || sc.from(k, "EmbeddedId", p...):
			f.ID = true
			f.Embedded = f.Embedded || strings.HasSuffix(t.text, "EmbeddedId")
		case sc.from(k, "Version", p...):
			f.Version = true
		case sc.from(k, "Embedded", p...):
			f.Embedded = true
		case sc.from(k, "ManyToOne", p...) || sc.from(k, "OneToOne", p...):
			f.Relation = true
		case sc.from(k, "OneToMany", p...) || sc.from(k, "ManyToMany", p...):
			f.Relation, f.ToMany = true, true
		case sc.from(k, "Column", p...) || sc.from(k, "JoinColumn", p...):
			if name, ok := sc.annotationString(k, "name"); ok {
				f.Column = name.String()
			}
		}
		if x.is(k+1, "(") {
			k = x.match[k+1]
		}
	}
	return k, !skip
}

// field reads the field declaration [s, e), e its ';'.
func (sc *jpaScan) field(s, e int) (JPAField, bool) {
	x := sc.x
	var f JPAField
	k, ok := sc.member(s, e, &f)
	if !ok || k >= e || !x.isIdent(k) || javaNotType[x.toks[k].text] || x.toks[k].text == "class" {
		return JPAField{}, false
	}
	f.Type = x.toks[k].text
	// The declarator: the name before '=' or ';' at the top level; a
	// declaration of several names is left out.
	end := e
	for j := k; j < e; j++ {
		if x.is(j, "=") {
			end = j
			break
		}
		if x.is(j, ",") && !sc.inTypeArgs(k, j) {
			return JPAField{}, false
		}
		if x.is(j, "(") {
			return JPAField{}, false
		}
	}
	if end-1 <= k || !x.isIdent(end-1) {
		return JPAField{}, false
	}
	for j := k; j+1 < end-1 && x.is(j+1, "."); j += 2 {
		f.Type = x.toks[j+2].text // java.util.Date
	}
	f.Name = x.toks[end-1].text
	return f, true
}

// inTypeArgs reports whether token j stands inside the <…> of a type that
// starts at token k.
func (sc *jpaScan) inTypeArgs(k, j int) bool {
	depth := 0
	for i := k; i < j; i++ {
		switch {
		case sc.x.is(i, "<"):
			depth++
		case sc.x.is(i, ">"):
			depth--
		}
	}
	return depth > 0
}

// getter reads the member [s, e), e its body's '{', as a mapped property
// when it is an annotated getter: `@Column(name = "QTY") public int getQuantity() {`.
func (sc *jpaScan) getter(s, e int) (JPAField, bool) {
	x := sc.x
	if !x.is(e-1, ")") || !x.is(e-2, "(") || !x.isIdent(e-3) {
		return JPAField{}, false
	}
	mapped := false
	for k := s; k < e; k++ {
		for _, a := range jpaMapping {
			mapped = mapped || sc.from(k, a, javaPersistencePackages...)
		}
	}
	if !mapped {
		return JPAField{}, false
	}
	var f JPAField
	k, ok := sc.member(s, e, &f)
	name := x.toks[e-3].text
	prop := ""
	for _, p := range []string{"get", "is"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			prop = strings.ToLower(rest[:1]) + rest[1:]
		}
	}
	if !ok || prop == "" || k >= e-3 || !x.isIdent(k) {
		return JPAField{}, false
	}
	f.Name, f.Type = prop, x.toks[k].text
	return f, true
}
