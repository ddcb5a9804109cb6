package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// jpaRepositoryType reports whether a declared type names a repository.
func jpaRepositoryType(t string) bool {
	return strings.HasSuffix(t, "Repository") || strings.HasSuffix(t, "Repo")
}

// jpaReadPrefixes start the names of Spring Data's derived finders.
var jpaReadPrefixes = []string{"find", "get", "read", "query"}

// jpaRead returns the repository method of a JPA read that initialises the
// local declared at name token j, whose value is tokens [s, e):
// `P p = repo.findById(id).orElseThrow(…)` (or .get(), .orElse(null)),
// `repo.getById(id)`, `repo.getReferenceById(id)`, `repo.findBySku(sku)` —
// a single entity on a receiver whose type or name says repository. "" for
// anything else: a List, an Optional kept as one.
func (x *javaFile) jpaRead(j, s, e int) string {
	if !x.isIdent(j-1) || !x.isIdent(s) || !x.is(s+1, ".") || !x.isIdent(s+2) || !x.is(s+3, "(") {
		return ""
	}
	recv := x.toks[s].text
	typ := x.declaredType(recv, s)
	if !jpaRepositoryType(typ) && !strings.Contains(strings.ToLower(recv), "repositor") && !strings.HasSuffix(strings.ToLower(recv), "repo") {
		return ""
	}
	m := x.toks[s+2].text
	k := x.match[s+3] + 1
	unwrapped := false
	if k < e && x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		switch x.toks[k+1].text {
		case "get", "orElseThrow":
		case "orElse":
			if !x.is(k+3, "null") || x.match[k+2] != k+4 {
				return ""
			}
		default:
			return ""
		}
		unwrapped = true
		k = x.match[k+2] + 1
	}
	if k != e {
		return ""
	}
	finder := false
	for _, p := range jpaReadPrefixes {
		if rest, ok := strings.CutPrefix(m, p); ok && strings.Contains(rest, "By") {
			finder = true
		}
	}
	switch {
	case m == "getById" || m == "getOne" || m == "getReferenceById" || m == "findOne":
	case m == "findById":
		if !unwrapped {
			return ""
		}
	case finder:
		// A derived finder returning an Optional or an entity; a var of
		// one that is not unwrapped may be a list.
		if x.toks[j-1].text == "var" && !unwrapped {
			return ""
		}
	default:
		return ""
	}
	return m
}

// jpaLoopRead returns the repository read of the for-each variable name
// declared at token j: `for (P p : repo.findByIdIn(ids))`, or over a local
// list so read; nil for anything else.
func (x *javaFile) jpaLoopRead(name string, j, body int) *stmt.MapperRead {
	s := j + 2
	o := x.opener[j]
	if o < 0 || !x.is(o, "(") || !x.is(o-1, "for") || !x.isIdent(j-1) {
		return nil
	}
	e := x.match[o]
	if e == s+1 && x.isIdent(s) {
		// for (P p : list), list = repo.findAllById(ids)
		list := x.toks[s].text
		k := x.localDecl(list, body, s)
		if k < 0 || !x.is(k+1, "=") || x.reassigned(list, body, k) {
			return nil
		}
		s, e = k+2, x.exprEnd(k+2)
	}
	if m := x.jpaListRead(s, e); m != "" {
		return &stmt.MapperRead{Variable: name, Method: m, Line: x.toks[j].line}
	}
	return nil
}

// jpaListRead returns the repository method when tokens [s, e) are exactly
// `repo.m(…)` of a finder returning entities (findAll…, find…By…) on a
// receiver whose type or name says repository.
func (x *javaFile) jpaListRead(s, e int) string {
	if e-s < 5 || !x.isIdent(s) || !x.is(s+1, ".") || !x.isIdent(s+2) || !x.is(s+3, "(") || x.match[s+3] != e-1 {
		return ""
	}
	recv := x.toks[s].text
	if !jpaRepositoryType(x.declaredType(recv, s)) && !strings.Contains(strings.ToLower(recv), "repositor") {
		return ""
	}
	m := x.toks[s+2].text
	for _, p := range jpaReadPrefixes {
		if rest, ok := strings.CutPrefix(m, p); ok && (strings.HasPrefix(rest, "All") || strings.Contains(rest, "By")) {
			return m
		}
	}
	return ""
}
