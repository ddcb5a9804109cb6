package validation

import "github.com/guard-sql/guard/internal/hostcode/java"

// The checks a method makes of a value before it uses it. A condition
// tells something of a subject (a name or a getter call, as written) when
// it is true or when it is false: that the subject is one of a fixed list
// of strings (member), or that it is null or empty (empty: it pastes no
// text), or nothing.

// fact is what a condition tells of a subject.
type fact uint8

const (
	noFact fact = iota
	empty       // null or empty: harmless
	member      // one of a fixed list
)

// subject is the tokens of a value as written: [at, at+n).
type subject struct{ at, n int }

// checkedAt reports whether subject [s, e) is one of a fixed list of
// strings at token at: an assumption held says so, a branch around at
// tests it, or a check before at stops the method or replaces the value
// when it fails.
func (c *code) checkedAt(s, e, at int, held []assumption) bool {
	subj := subject{s, e - s}
	for _, a := range held {
		if a.truth && c.whenTrue(a.s, a.e, subj) == member || !a.truth && c.whenFalse(a.s, a.e, subj) == member {
			return true
		}
	}
	body := c.t.MethodBody(at)
	if body < 0 {
		return false
	}
	return c.branchTells(subj, body, at, false) || c.guardBefore(subj, body, at)
}

// isSubject reports whether [s, e) is the subject as written.
func (c *code) isSubject(s, e int, subj subject) bool {
	return e-s == subj.n && c.same(s, subj.at, subj.n)
}

// whenTrue tells what the truth of condition [s, e) says of subj.
func (c *code) whenTrue(s, e int, subj subject) fact { return c.when(s, e, subj, true) }

// whenFalse tells what the falsity of condition [s, e) says of subj.
func (c *code) whenFalse(s, e int, subj subject) fact { return c.when(s, e, subj, false) }

// when tells what condition [s, e) having the truth value truth says of
// subj. By De Morgan, a true `a || b` and a false `a && b` say only what
// each part says, every part must tell; a true `a && b` and a false
// `a || b` say what any part says.
func (c *code) when(s, e int, subj subject, truth bool) fact {
	s, e = c.trim(s, e)
	each, some := "||", "&&"
	if !truth {
		each, some = some, each
	}
	if parts := c.split(s, e, each); len(parts) > 1 {
		out := empty
		for _, p := range parts {
			switch c.when(p[0], p[1], subj, truth) {
			case noFact:
				return noFact
			case member:
				out = member
			}
		}
		return out
	}
	if parts := c.split(s, e, some); len(parts) > 1 {
		out := noFact
		for _, p := range parts {
			out = max(out, c.when(p[0], p[1], subj, truth))
		}
		return out
	}
	if c.is(s, "!") {
		return c.when(s+1, e, subj, !truth)
	}
	switch {
	case !truth:
		if e-s == subj.n+2 && c.isSubject(s, s+subj.n, subj) && c.is(s+subj.n, "!=") && c.is(s+subj.n+1, "null") {
			return empty
		}
	case c.membership(s, e, subj):
		return member
	case c.emptiness(s, e, subj):
		return empty
	}
	return noFact
}

// emptiness reports whether condition [s, e) holds only when subj is null
// or empty: `x == null`, `x.isEmpty()`, `StringUtils.isBlank(x)`.
func (c *code) emptiness(s, e int, subj subject) bool {
	n := subj.n
	switch {
	case e-s == n+2 && c.isSubject(s, s+n, subj) && c.is(s+n, "==") && c.is(s+n+1, "null"),
		e-s == n+2 && c.is(s, "null") && c.is(s+1, "==") && c.isSubject(s+2, e, subj),
		e-s == n+4 && c.isSubject(s, s+n, subj) && c.is(s+n, ".") && c.is(s+n+1, "isEmpty") && c.is(s+n+2, "("):
		return true
	}
	if e-s == n+5 && upper(c.text(s)) && c.is(s+1, ".") && (c.is(s+2, "isEmpty") || c.is(s+2, "isBlank")) &&
		c.is(s+3, "(") && c.isSubject(s+4, e-1, subj) {
		return true
	}
	return false
}

// membership reports whether condition [s, e) holds only when subj is one
// of a fixed list: `C.contains(x)` (containsKey, containsValue) on a
// constant collection, `"a".equals(x)`, `x.equals(A)`, `Objects.equals(x,
// A)`, `StringUtils.equalsAny(x, "a", "b")`, `x.matches("re")` and
// `Pattern.matches("re", x)` with a regexp that admits no SQL syntax.
func (c *code) membership(s, e int, subj subject) bool {
	if !c.is(e-1, ")") {
		return false
	}
	open := c.t.Match(e - 1)
	m := open - 1
	if open <= s || !c.ident(m) {
		return false
	}
	args := c.split(open+1, e-1, ",")
	oneArg := len(args) == 1 && c.isSubject(args[0][0], args[0][1], subj)
	recv := [2]int{s, m - 1}
	if m-1 <= s || !c.is(m-1, ".") {
		return false
	}
	switch c.text(m) {
	case "contains", "containsKey", "containsValue":
		return oneArg && c.collection(recv[0], recv[1])
	case "equals", "equalsIgnoreCase":
		switch {
		case oneArg:
			return c.constant(recv[0], recv[1])
		case c.isSubject(recv[0], recv[1], subj):
			return len(args) == 1 && c.constant(args[0][0], args[0][1])
		}
		return c.upperCall(recv, args, subj)
	case "equalsAny", "equalsAnyIgnoreCase":
		return c.upperCall(recv, args, subj)
	case "matches":
		if c.isSubject(recv[0], recv[1], subj) && len(args) == 1 {
			return c.safeRegexpArg(args[0])
		}
		return recv[1]-recv[0] == 1 && c.is(recv[0], "Pattern") && len(args) == 2 &&
			c.isSubject(args[1][0], args[1][1], subj) && c.safeRegexpArg(args[0])
	}
	return false
}

// upperCall reports whether `Util.m(args)` compares subj with constants
// only: one argument is subj, every other a constant.
func (c *code) upperCall(recv [2]int, args [][2]int, subj subject) bool {
	if recv[1]-recv[0] != 1 || !upper(c.text(recv[0])) || len(args) < 2 {
		return false
	}
	seen := false
	for _, a := range args {
		switch {
		case c.isSubject(a[0], a[1], subj):
			seen = true
		case !c.constant(a[0], a[1]):
			return false
		}
	}
	return seen
}

// safeRegexpArg reports whether argument a is a string literal whose
// regexp admits only safe text (see SafePattern).
func (c *code) safeRegexpArg(a [2]int) bool {
	return a[1]-a[0] == 1 && c.t.At(a[0]).Kind == java.TokString && SafePattern(c.t.Literal(a[0]))
}
