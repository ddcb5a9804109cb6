package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// Repository is a Spring Data repository interface of the file.
type Repository struct {
	// Interface is the qualified interface name.
	Interface string
	// Entity is the domain type its base interface names
	// (JpaRepository<Product, Long> → com.x.model.Product), qualified like
	// Entity.Super; empty when not seen.
	Entity string
	// Queries are its @Query methods whose JPQL guard renders once the
	// entities of the run are known (native ones are fragments already).
	Queries []Query
	// Locked are its methods annotated @Lock: their reads lock the row.
	Locked []string
}

// Query is a JPQL @Query of a repository method.
type Query struct {
	// Method is the annotated method; Returns its declared result type.
	Method, Returns string
	// Modifying reports @Modifying on the method.
	Modifying bool
	// Line and Col are the @Query annotation's; EndLine its last line.
	Line, Col, EndLine int
	// Unchecked says why the value cannot be read (constants of other
	// files); text is then empty.
	Unchecked string
	JPQL      java.Text
}

// springDataBases are the Spring Data interfaces a repository extends
// whose first type argument is its domain type.
var springDataBases = map[string]bool{
	"Repository": true, "CrudRepository": true, "ListCrudRepository": true, "PagingAndSortingRepository": true,
	"ListPagingAndSortingRepository": true, "JpaRepository": true, "JpaRepositoryImplementation": true,
}

// repository reads interface t when it is a Spring Data repository: it
// extends one of Spring Data's repository interfaces, or its methods carry
// Spring Data's @Query.
func (sc *scan) repository(t java.TypeDecl) (Repository, bool) {
	r := Repository{Interface: t.Name}
	if sc.pkg != "" {
		r.Interface = sc.pkg + "." + t.Name
	}
	// A type with type arguments in its head — its own name first, then
	// its base interfaces — gives the domain type: its first argument,
	// when it is Spring Data's or a repository of the project
	// (SalesManagerEntityRepository<Product, Long>).
	heads := t.Extends
	if len(t.Params) > 0 {
		heads = append([]java.TypeRef{{Name: t.Name, Args: t.Params}}, heads...)
	}
	base := false
	for _, h := range heads {
		n := simpleName(h.Name)
		if (springDataBases[n] || strings.HasSuffix(n, "Repository")) && r.Entity == "" && len(h.Args) > 0 {
			r.Entity = simpleName(h.Args[0])
			base = base || springDataBases[n]
		}
	}
	r.Entity = sc.qualify(r.Entity)
	for _, m := range sc.s.Members(t) {
		for _, a := range m.Annotations {
			switch {
			case sc.from(a, "Query", springDataJPA):
				base = true
				if q, ok := sc.query(a, m, &r); ok {
					r.Queries = append(r.Queries, q)
				}
			case sc.from(a, "Lock", springDataJPA):
				if m.Method {
					r.Locked = append(r.Locked, m.Name)
				}
			}
		}
	}
	return r, base
}

// query reads the @Query annotation a of method m of r: a native statement
// becomes a fragment of the file now, a JPQL one of a @Modifying method is
// kept for guard lint to render.
func (sc *scan) query(a java.Annotation, m java.Member, r *Repository) (Query, bool) {
	v, ok := sc.s.AnnotationValue(a, "value")
	if !ok || !m.Method {
		return Query{}, false
	}
	q := Query{Method: m.Name, Returns: m.Result, Line: a.Line}
	q.Col, q.EndLine = sc.s.Span(a)
	for _, o := range m.Annotations {
		q.Modifying = q.Modifying || sc.from(o, "Modifying", springDataJPA)
	}
	native := a.Args["nativeQuery"] == "true"
	if !sc.s.Claim(a) {
		return Query{}, false
	}
	if !v.Known {
		if !q.Modifying || native {
			// A query, not a write: nothing to check; a native one the
			// file cannot spell is left to the rules of its callers.
			return Query{}, false
		}
		q.Unchecked = "Spring Data @Query uses constants not defined in this file: " + strings.Join(v.Dynamic, ", ")
		return q, true
	}
	if native {
		fr := sc.s.AddSQL(a, springNative(v.Text), q.Method)
		fr.Namespace = r.Interface
		if q.Modifying {
			fr.Exec = q.Exec()
		}
		return Query{}, false
	}
	if !q.Modifying {
		return Query{}, false
	}
	q.JPQL = v.Text
	return q, true
}

// Exec describes how the repository method returns the count of the rows
// its @Modifying statement changed: a void method drops it, every caller
// of an int method sees it (guard lint judges each call).
func (q *Query) Exec() *stmt.Exec {
	if q.Returns != "void" {
		return nil
	}
	return &stmt.Exec{Method: stmt.ModifyingVoid + q.Method + "()", ResultDiscarded: true, Returns: stmt.ReturnsNothing}
}

// hibernatePlaceholders are the names Hibernate replaces in native SQL
// (with the default schema or catalog, empty when there is none).
var hibernatePlaceholders = []string{"{h-schema}", "{h-catalog}", "{h-domain}"}

// springNative is the SQL Spring Data and Hibernate send for a native
// @Query text: Hibernate's {h-schema} placeholders dropped, and Spring
// Data's LIKE shorthand %?1% / %:name% bound as the parameter it wraps.
func springNative(t java.Text) java.Text {
	var out java.Text
	param := func(i int) bool {
		return i+1 < len(t) && (t[i].B == '?' || t[i].B == ':' && identStart(t[i+1].B))
	}
	quote := byte(0)
	afterParam := false
	for i := 0; i < len(t); i++ {
		c := t[i].B
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '{':
			skip := 0
			for _, h := range hibernatePlaceholders {
				if i+len(h) <= len(t) && strings.EqualFold(t[i:i+len(h)].String(), h) {
					skip = len(h)
				}
			}
			if skip > 0 {
				i += skip - 1
				continue
			}
		case c == '%' && (param(i+1) || afterParam):
			continue
		}
		afterParam = quote == 0 && (param(i) || afterParam && (c >= '0' && c <= '9' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'))
		out = append(out, t[i])
	}
	return wrapInParams(out)
}

// wrapInParams puts parentheses around a parameter that follows IN bare
// (`r.role_id IN ?1`, `id in :ids`): Spring Data expands the collection it
// binds into the list `(?, ?, …)`, which the parser needs to see as one.
func wrapInParams(t java.Text) java.Text {
	var out java.Text
	quote := byte(0)
	for i := 0; i < len(t); i++ {
		c := t[i].B
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case (c == '?' || c == ':' && i+1 < len(t) && identStart(t[i+1].B)) && afterIn(out):
			j := i + 1
			for j < len(t) && (t[j].B >= '0' && t[j].B <= '9' || c == ':' && identPart(t[j].B)) {
				j++
			}
			out = append(out, java.Char{B: '(', Line: t[i].Line, Col: t[i].Col})
			out = append(out, t[i:j]...)
			out = append(out, java.Char{B: ')', Line: t[j-1].Line, Col: t[j-1].Col})
			i = j - 1
			continue
		}
		out = append(out, t[i])
	}
	return out
}

// afterIn reports whether the text so far ends with the word IN and
// whitespace.
func afterIn(t java.Text) bool {
	k := len(t)
	for k > 0 && (t[k-1].B == ' ' || t[k-1].B == '\t' || t[k-1].B == '\n' || t[k-1].B == '\r') {
		k--
	}
	if k == len(t) || k < 2 || (t[k-1].B|0x20) != 'n' || (t[k-2].B|0x20) != 'i' {
		return false
	}
	return k == 2 || !identPart(t[k-3].B)
}

// identStart reports whether c may begin a Java identifier (ASCII).
func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// identPart reports whether c may continue a Java identifier.
func identPart(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
