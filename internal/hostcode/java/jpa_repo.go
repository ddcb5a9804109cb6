package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// repository reads the interface declared at the "interface" token k when
// it is a Spring Data repository: it extends one of Spring Data's
// repository interfaces, or its methods carry Spring Data's @Query.
func (sc *jpaScan) repository(k int) (JPARepository, bool) {
	x := sc.x
	r := JPARepository{Interface: x.toks[k+1].text}
	if sc.pkg != "" {
		r.Interface = sc.pkg + "." + r.Interface
	}
	body := -1
	base := false
	for j := k + 2; j < len(x.toks); j++ {
		if x.is(j, "{") {
			body = j
			break
		}
		if !x.isIdent(j) || !x.is(j+1, "<") {
			continue
		}
		// A base interface with type arguments: its first one is the
		// domain type when it is Spring Data's or a repository of the
		// project (SalesManagerEntityRepository<Product, Long>).
		n := x.toks[j].text
		if (javaSpringDataBases[n] || strings.HasSuffix(n, "Repository")) && r.Entity == "" && x.isIdent(j+2) {
			r.Entity = x.toks[j+2].text
			for x.is(j+3, ".") && x.isIdent(j+4) {
				j += 2
				r.Entity = x.toks[j+2].text
			}
			base = base || javaSpringDataBases[n]
		}
	}
	if body < 0 {
		return JPARepository{}, false
	}
	r.Entity = sc.qualify(r.Entity)
	for i := body + 1; i < x.match[body]; i++ {
		if x.encl[i] != body || x.toks[i].kind != javaAnnot {
			continue
		}
		switch {
		case sc.from(i, "Query", javaSpringDataJPA):
			base = true
			if q, ok := sc.query(i, &r); ok {
				r.Queries = append(r.Queries, q)
			}
		case sc.from(i, "Lock", javaSpringDataJPA):
			if m := x.annotatedMethod(i); m != "" {
				r.Locked = append(r.Locked, m)
			}
		}
		if x.is(i+1, "(") {
			i = x.match[i+1]
		}
	}
	return r, base
}

// query reads the @Query annotation at token at of a method of r: a native
// statement becomes a Fragment of the file now, a JPQL one of a @Modifying
// method is kept for guard lint to render.
func (sc *jpaScan) query(at int, r *JPARepository) (JPAQuery, bool) {
	x := sc.x
	if !x.is(at+1, "(") {
		return JPAQuery{}, false
	}
	closing := x.match[at+1]
	q := JPAQuery{Line: x.toks[at].line, Col: x.toks[at].col, EndLine: x.toks[closing].endLine}
	// The method after the annotation, its other annotations and result type.
	name := -1
	for k := closing + 1; k < len(x.toks); k++ {
		t := x.toks[k]
		if t.kind == javaAnnot {
			if sc.from(k, "Modifying", javaSpringDataJPA) {
				q.Modifying = true
			}
			if x.is(k+1, "(") {
				k = x.match[k+1]
			}
			continue
		}
		if t.kind == javaIdent && x.is(k+1, "(") {
			name = k
			break
		}
		if x.is(k, ";") || x.is(k, "{") || x.is(k, "}") {
			break
		}
	}
	if name < 0 {
		return JPAQuery{}, false
	}
	q.Method = x.toks[name].text
	if x.isIdent(name - 1) {
		q.Returns = x.toks[name-1].text
	}
	for _, a := range sc.x.annotationTokens(at) {
		if sc.from(a, "Modifying", javaSpringDataJPA) {
			q.Modifying = true
		}
	}
	native := false
	if s, e := sc.attribute(at, "nativeQuery"); s >= 0 && e == s+1 && x.is(s, "true") {
		native = true
	}
	vs, ve := sc.attribute(at, "value")
	if vs < 0 {
		return JPAQuery{}, false
	}
	ev := x.eval(vs, ve, 0)
	for _, ref := range ev.refs {
		ref.usedOther = true
	}
	if !x.claim(at, closing+1) {
		return JPAQuery{}, false
	}
	if !ev.known() {
		if !q.Modifying {
			return JPAQuery{}, false // a query, not a write: nothing to check
		}
		q.Unchecked = "Spring Data @Query uses constants not defined in this file: " + strings.Join(ev.dynamic, ", ")
		if native {
			fr := x.addUnchecked(at, closing+1, q.Unchecked, q.Method)
			if fr != nil {
				fr.Namespace = r.Interface
			}
			return JPAQuery{}, false
		}
		return q, true
	}
	if native {
		fr := x.addSQL(springNative(ev.text), at, closing+1, q.Method)
		fr.Namespace = r.Interface
		if q.Modifying {
			fr.Exec = q.Exec()
		}
		return JPAQuery{}, false
	}
	if !q.Modifying {
		return JPAQuery{}, false
	}
	q.JPQL = ev.text
	return q, true
}

// Exec describes how the repository method returns the count of the rows
// its @Modifying statement changed: a void method drops it, every caller
// of an int method sees it (guard lint judges each call).
func (q *JPAQuery) Exec() *stmt.Exec {
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
func springNative(t Text) Text {
	var out Text
	param := func(i int) bool {
		return i+1 < len(t) && (t[i].B == '?' || t[i].B == ':' && javaIdentStart([]byte{t[i+1].B}))
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
func wrapInParams(t Text) Text {
	var out Text
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
		case (c == '?' || c == ':' && i+1 < len(t) && javaIdentStart([]byte{t[i+1].B})) && afterIn(out):
			j := i + 1
			for j < len(t) && (t[j].B >= '0' && t[j].B <= '9' || c == ':' && javaIdentPart(t[j].B)) {
				j++
			}
			out = append(out, Char{B: '(', Line: t[i].Line, Col: t[i].Col})
			out = append(out, t[i:j]...)
			out = append(out, Char{B: ')', Line: t[j-1].Line, Col: t[j-1].Col})
			i = j - 1
			continue
		}
		out = append(out, t[i])
	}
	return out
}

// afterIn reports whether the text so far ends with the word IN and
// whitespace.
func afterIn(t Text) bool {
	k := len(t)
	for k > 0 && (t[k-1].B == ' ' || t[k-1].B == '\t' || t[k-1].B == '\n' || t[k-1].B == '\r') {
		k--
	}
	if k == len(t) || k < 2 || (t[k-1].B|0x20) != 'n' || (t[k-2].B|0x20) != 'i' {
		return false
	}
	return k == 2 || !javaIdentPart(t[k-3].B)
}

// javaIdentPart reports whether c may continue a Java identifier.
func javaIdentPart(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
