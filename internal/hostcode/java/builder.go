package java

import "github.com/guard-sql/guard/internal/stmt"

// Entities made or reached without a setter statement of their own: a
// Lombok builder chain (`X.builder().status(2).build()`), and the element
// a lambda walks (`orders.forEach(o -> { o.setStatus(2); … })`).

// builderClass returns X when token s starts a builder chain `X.builder()`.
func (x *javaFile) builderClass(s int) string {
	if !x.isIdent(s) || !x.is(s+1, ".") || !x.is(s+2, "builder") || !x.is(s+3, "(") || !x.is(s+4, ")") {
		return ""
	}
	if c := x.toks[s].text; c[0] >= 'A' && c[0] <= 'Z' {
		return c
	}
	return ""
}

// builderSets reads the properties the builder chain starting at token s
// gives, `.a(…).b(…)` up to `.build()`, and returns the token after the
// chain; built reports whether it ends in build().
func (x *javaFile) builderSets(s, body int) (sets []plusSet, end int, built bool) {
	k := s + 5
	for x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		m := x.toks[k+1].text
		open, close := k+2, x.match[k+2]
		if m == "build" {
			return sets, close + 1, close == open+1
		}
		ps := stmt.PropertySet{Property: m, Text: x.describe(open+1, close), Line: x.toks[k+1].line}
		ps.Form, ps.Read = x.valueForm(open+1, close, body)
		ps.CopiesRead = x.copiesRead(ps, open, close)
		sets = append(sets, plusSet{PropertySet: ps, tok: k + 1})
		k = close + 1
	}
	return sets, k, false
}

// copiesRead reports whether the argument (open, close) of a setter of s
// is the same property's getter on the record read: `setStock(old.getStock())`
// writes back what was read.
func (x *javaFile) copiesRead(s stmt.PropertySet, open, close int) bool {
	if s.Form != stmt.ValueFromRead || close != open+6 || !x.is(open+4, "(") || !x.is(open+5, ")") {
		return false
	}
	g := x.toks[open+3].text
	return len(g) == len(s.Property)+3 && g[:3] == "get" && g[3:4] == upperFirst(s.Property[:1]) && g[4:] == s.Property[1:]
}

// upperFirst returns the ASCII upper case of a one-letter string.
func upperFirst(c string) string {
	if c[0] >= 'a' && c[0] <= 'z' {
		return string(c[0] - 'a' + 'A')
	}
	return c
}

// recordType is the simple type of the record variable name at token at
// in method body: its local declaration, a field or parameter declaring
// it, or the element type of the collection a lambda naming it walks.
func (x *javaFile) recordType(name string, body, at int) string {
	if t := x.localType(name, body, at); t != "" {
		return t
	}
	if p := x.lambdaParam(name, at); p >= 0 {
		return x.lambdaElement(p)
	}
	return x.declaredType(name, at)
}

// lambdaParam returns the token of the untyped parameter name of the
// innermost lambda holding token at (`o -> …`, `(o) -> …`), or -1.
func (x *javaFile) lambdaParam(name string, at int) int {
	for o := x.opener[at]; o >= 0; o = x.opener[o] {
		for j := o + 1; j < at; j++ {
			if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") {
				continue
			}
			arrow := j + 1
			if x.is(j-1, "(") && x.is(j+1, ")") {
				arrow = j + 2
			}
			if x.is(arrow, "->") && x.lambdaReaches(arrow, at) {
				return j
			}
		}
	}
	return -1
}

// lambdaReaches reports whether the body of the lambda whose arrow is
// token arrow holds token at: a block up to its '}', an expression up to
// its end.
func (x *javaFile) lambdaReaches(arrow, at int) bool {
	if x.is(arrow+1, "{") {
		return at < x.match[arrow+1]
	}
	return at < x.exprEnd(arrow+1)
}

// lambdaElement is the element type of the collection the lambda whose
// parameter is token p walks: `list.forEach(p -> …)` or
// `list.stream().filter(…).forEach(p -> …)` where the method declares
// `List<X> list` (or a field does); "" when it is not known.
func (x *javaFile) lambdaElement(p int) string {
	o := x.opener[p]
	if o >= 0 && x.is(o, "(") && o+1 == p && x.is(p+1, ")") { // (p) ->: the call's paren is the next one out
		o = x.opener[o]
	}
	if o < 3 || !x.is(o, "(") || !x.isIdent(o-1) || !x.is(o-2, ".") {
		return ""
	}
	k := o - 3
	for x.is(k, ")") { // .stream().filter(…).
		open := x.opener[k]
		if open < 3 || !x.isIdent(open-1) || !x.is(open-2, ".") {
			return ""
		}
		k = open - 3
	}
	if !x.isIdent(k) || x.is(k-1, ".") {
		return ""
	}
	return x.elementType(x.toks[k].text, k)
}

// elementType is E of the nearest declaration `C<E> name` before token
// before, "" when there is none.
func (x *javaFile) elementType(name string, before int) string {
	for j := before - 1; j >= 3; j-- {
		if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") {
			continue
		}
		if x.is(j-1, ">") && x.isIdent(j-2) && x.is(j-3, "<") && (x.is(j+1, "=") || x.is(j+1, ";") || x.is(j+1, ",") || x.is(j+1, ")") || x.is(j+1, ":")) {
			return x.toks[j-2].text
		}
	}
	return ""
}
