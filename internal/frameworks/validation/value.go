package validation

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// maxDepth bounds how far a value is followed through the locals it is
// assigned from.
const maxDepth = 4

// Values evaluates expressions of one file, keeping what it learns of
// the file's fields for the next.
type Values struct{ c *code }

// NewValues returns the evaluator of the expressions of file s.
func NewValues(s java.Syntax) *Values { return &Values{newCode(s)} }

// Of returns what the file shows of the expression in tokens [from, to)
// of a method: which of its parts are constants, checked before the use,
// or rest on a check another file declares.
func (v *Values) Of(from, to int) Check {
	if from >= to {
		return unchecked("no argument")
	}
	return v.c.value(from, to, nil, 0)
}

// assumption is a condition known true (or false) where an expression is
// evaluated: the branch of a ternary.
type assumption struct {
	s, e  int
	truth bool
}

// value evaluates [s, e) under the assumptions held.
func (c *code) value(s, e int, held []assumption, depth int) Check {
	s, e = c.trim(s, e)
	if s >= e {
		return unchecked("no argument")
	}
	if q, colon := c.ternary(s, e); q >= 0 {
		then := c.value(q+1, colon, append(held[:len(held):len(held)], assumption{s, q, true}), depth)
		return then.and(c.value(colon+1, e, append(held[:len(held):len(held)], assumption{s, q, false}), depth))
	}
	if parts := c.split(s, e, "+"); len(parts) > 1 {
		var out Check
		for _, p := range parts {
			out = out.and(c.value(p[0], p[1], held, depth))
		}
		return out
	}
	if c.constant(s, e) {
		return Check{}
	}
	if c.checkedAt(s, e, s, held) {
		return Check{}
	}
	return c.operand(s, e, held, depth)
}

// operand evaluates one operand that is not a constant and that no check
// around it vouches for: a name, a getter, a constant lookup, a switch.
func (c *code) operand(s, e int, held []assumption, depth int) Check {
	switch {
	case e-s == 1 && c.ident(s) && !upper(c.text(s)):
		return c.name(s, held, depth)
	case c.is(s, "switch") && c.is(s+1, "("):
		if c.switchOfConstants(s, e, depth) {
			return Check{}
		}
	case c.is(s, "(") && c.t.Match(s) == s+2 && c.ident(s+1) && upper(c.text(s+1)):
		return c.value(s+3, e, held, depth) // (String) x
	}
	if k, ok := c.lookup(s, e); ok {
		// A constant map's get or getOrDefault: one of its values, or the
		// constant default (null when absent, which pastes no text).
		if k < 0 {
			return Check{}
		}
		return c.value(k, e-1, held, depth)
	}
	if n, ok := c.getter(s, e); ok {
		return Check{Needs: []Need{n}}
	}
	return unchecked(c.source(s, e))
}

// ternary returns the '?' and ':' of a conditional expression at the top
// level of [s, e), -1 for none.
func (c *code) ternary(s, e int) (q, colon int) {
	q, depth := -1, 0
	for k := s; k < e; k++ {
		switch {
		case c.is(k, "(") || c.is(k, "[") || c.is(k, "{"):
			if m := c.t.Match(k); m > k && m < e {
				k = m
			}
		case c.is(k, "?") && !c.is(k-1, "<") && !c.is(k+1, ">"):
			if q < 0 {
				q = k
			} else {
				depth++
			}
		case c.is(k, ":") && q >= 0:
			if depth == 0 {
				return q, k
			}
			depth--
		}
	}
	return -1, -1
}

// lookup recognises `M.get(k)` and `M.getOrDefault(k, d)` on a constant
// map M over all of [s, e): for getOrDefault it returns the first token of
// d, else -1.
func (c *code) lookup(s, e int) (int, bool) {
	if !c.is(e-1, ")") {
		return 0, false
	}
	open := c.t.Match(e - 1)
	m := open - 1
	if open <= s+2 || !c.is(m-1, ".") || !c.is(m, "get") && !c.is(m, "getOrDefault") || !c.collection(s, m-1) {
		return 0, false
	}
	if c.is(m, "get") {
		return -1, true
	}
	if args := c.split(open+1, e-1, ","); len(args) == 2 {
		return args[1][0], true
	}
	return 0, false
}

// getter recognises `p.getX()` over all of [s, e), p a name whose declared
// type the file shows: the property x of that type.
func (c *code) getter(s, e int) (Need, bool) {
	if e-s != 5 || !c.ident(s) || !c.is(s+1, ".") || !c.is(s+3, "(") || !c.is(s+4, ")") {
		return Need{}, false
	}
	prop, ok := strings.CutPrefix(c.text(s+2), "get")
	if !ok || !upper(prop) {
		return Need{}, false
	}
	typ := c.t.DeclaredType(c.text(s), s)
	if typ == "" {
		return Need{}, false
	}
	return Need{What: c.source(s, e), Type: typ, Field: strings.ToLower(prop[:1]) + prop[1:]}, true
}

// name evaluates a plain name used at token at: a local is as checked as
// every value assigned to it, a parameter as its constraints (and what the
// method assigns to it).
func (c *code) name(at int, held []assumption, depth int) Check {
	name := c.text(at)
	body := c.t.MethodBody(at)
	if body < 0 || depth >= maxDepth {
		return unchecked(name)
	}
	var out Check
	decl := c.localDecl(name, body, at)
	if decl < 0 {
		p, ok := c.parameter(body, name)
		if !ok {
			return unchecked(name) // a field, or what guard cannot see
		}
		out = p
	}
	for _, a := range c.assignments(name, body, decl, at) {
		switch {
		case a[0] < 0: // a for-each variable: over a constant collection?
			if !c.collection(-a[0], a[1]) {
				out = out.and(unchecked(name))
			}
		default:
			out = out.and(c.value(a[0], a[1], nil, depth+1))
		}
	}
	return out
}

// localDecl returns the name token of the declaration of local name in
// method body before token at whose block holds at, -1 for none.
func (c *code) localDecl(name string, body, at int) int {
	found := -1
	for k := body + 1; k < at; k++ {
		if c.text(k) != name || !c.ident(k) || c.is(k-1, ".") {
			continue
		}
		if !c.typed(k-1) || !(c.is(k+1, "=") || c.is(k+1, ";") || c.is(k+1, ":") || c.is(k+1, ",")) {
			continue
		}
		if c.encloses(c.t.Enclosing(k), at) {
			found = k
		}
	}
	return found
}

// assignments returns the values assigned to name in method body before
// token at: the initialiser of its declaration at decl (when decl ≥ 0), and
// each `name = …` and `name += …`, as token ranges; a for-each variable
// gives its collection's range with the start negated.
func (c *code) assignments(name string, body, decl, at int) [][2]int {
	var out [][2]int
	if decl >= 0 {
		switch {
		case c.is(decl+1, "="):
			out = append(out, [2]int{decl + 2, c.valueEnd(decl+2, at)})
		case c.is(decl+1, ":"):
			out = append(out, [2]int{-(decl + 2), c.t.Match(c.forOpen(decl))})
		}
	}
	for k := max(decl, body) + 1; k < at; k++ {
		if c.text(k) != name || !c.ident(k) || c.is(k-1, ".") || !(c.is(k+1, "=") || c.is(k+1, "+=")) {
			continue
		}
		if c.is(k-1, "this") {
			continue
		}
		out = append(out, [2]int{k + 2, c.valueEnd(k+2, at)})
	}
	return out
}

// forOpen returns the '(' of the for header that declares the variable at
// decl.
func (c *code) forOpen(decl int) int {
	for j := decl - 1; j > 0; j-- {
		if c.is(j, "(") {
			return j
		}
	}
	return 0
}

// valueEnd returns the end of the value starting at s: the ';' or ',' that
// ends the declaration or the statement.
func (c *code) valueEnd(s, limit int) int {
	for k := s; k < c.t.Len(); k++ {
		switch {
		case c.is(k, "(") || c.is(k, "[") || c.is(k, "{"):
			if m := c.t.Match(k); m > k {
				k = m
			}
		case c.is(k, ";") || c.is(k, ",") || c.is(k, ")"):
			return k
		}
	}
	return limit
}
