package validation

import "github.com/guard-sql/guard/internal/hostcode/java"

// collection reports whether [s, e) is a collection of constants: built
// from constants where it stands (`Set.of("a", "b")`, `Arrays.asList(…)`),
// or a field of the file every value and element of which is a constant,
// or an upper-case constant of another class (ALLOWED_SORTS), a constant
// by the conventions of Java.
func (c *code) collection(s, e int) bool {
	s, e = c.trim(s, e)
	if s >= e {
		return false
	}
	name := -1
	switch {
	case e-s == 1 && c.ident(s):
		name = s
	case e-s == 3 && c.is(s, "this") && c.is(s+1, ".") && c.ident(s+2):
		name = s + 2
	case e-s == 3 && upper(c.text(s)) && c.is(s+1, ".") && c.ident(s+2):
		name = s + 2 // Sorts.ALLOWED, or the file's own class
	}
	if name < 0 {
		return c.constant(s, e)
	}
	text := c.text(name)
	if ok, seen := c.collections[text]; seen {
		return ok
	}
	ok := true
	values, declared := c.fieldValues(text)
	if !declared {
		ok = allUpper(text)
	}
	for _, v := range values {
		ok = ok && c.constant(v[0], v[1])
	}
	c.collections[text] = ok
	return ok
}

// allUpper reports whether name is written in upper case: a constant.
func allUpper(name string) bool {
	for _, r := range name {
		if r >= 'a' && r <= 'z' {
			return false
		}
	}
	return upper(name)
}

// mutators are the methods that add to a collection.
var mutators = map[string]bool{"add": true, "addAll": true, "put": true, "putAll": true, "putIfAbsent": true,
	"offer": true, "push": true, "set": true, "merge": true, "compute": true, "computeIfAbsent": true, "replace": true}

// fieldValues returns, when the file declares a field called name, what
// it is given: its initialiser, every value assigned to it and the
// arguments of every call that adds to it (`SORTS.put("name", "name")` in
// a static block).
func (c *code) fieldValues(name string) ([][2]int, bool) {
	var out [][2]int
	declared := false
	n := c.t.Len()
	for k := 1; k < n; k++ {
		if c.text(k) != name || !c.ident(k) {
			continue
		}
		qualified := c.is(k-1, ".")
		switch {
		case !qualified && c.t.MethodBody(k) < 0 && c.t.Enclosing(k) >= 0 && c.typed(k-1) &&
			(c.is(k+1, "=") || c.is(k+1, ";") || c.is(k+1, ",")):
			declared = true
			if c.is(k+1, "=") {
				out = append(out, [2]int{k + 2, c.valueEnd(k+2, n)})
			}
		case (!qualified || c.is(k-2, "this")) && c.is(k+1, "=") && !c.is(k+2, "="):
			out = append(out, [2]int{k + 2, c.valueEnd(k+2, n)})
		case c.is(k+1, ".") && mutators[c.text(k+2)] && c.is(k+3, "("):
			out = append(out, [2]int{k + 4, c.t.Match(k + 3)})
		}
	}
	return out, declared
}

// typed reports whether token k ends a type: a name, or the > or ] of a
// generic or array type.
func (c *code) typed(k int) bool {
	t := c.t.At(k)
	if t.Kind == java.TokIdent {
		return !statementWords[t.Text]
	}
	return t.Text == ">" || t.Text == "]"
}

// statementWords are the keywords a name may follow that are no type.
var statementWords = map[string]bool{"return": true, "new": true, "case": true, "throw": true, "else": true,
	"yield": true, "assert": true, "do": true, "instanceof": true}

// switchOfConstants reports whether [s, e) is a switch expression every
// arm of which yields a constant or throws.
func (c *code) switchOfConstants(s, e, depth int) bool {
	blk := c.t.Match(s+1) + 1
	if !c.is(blk, "{") || c.t.Match(blk) != e-1 {
		return false
	}
	arms := 0
	for k := blk + 1; k < e-1; k++ {
		var from int
		switch {
		case c.is(k, "->") && c.t.Enclosing(k) == blk:
			from = k + 1
			if c.is(from, "throw") {
				arms++
				continue
			}
			if c.is(from, "{") {
				continue // its yield, below
			}
		case c.is(k, "yield"):
			from = k + 1
		default:
			continue
		}
		end := c.statementEnd(from, e-1)
		if !c.value(from, end, nil, depth+1).Local() {
			return false
		}
		arms++
		k = end
	}
	return arms > 0
}
