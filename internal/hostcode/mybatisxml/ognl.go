package mybatisxml

import (
	"strconv"
	"strings"
)

// A mapper often picks one of several clauses with sibling <if> elements
// rather than a <choose>: `<if test="sort == 0">ORDER BY a</if>
// <if test="sort == 1">ORDER BY b</if>`. Rendering every <if> present would
// join clauses no call can join (ORDER BY a ORDER BY b), SQL MyBatis never
// sends. mbExclusive tells which tests can never hold together, reading the
// OGNL of the test attributes just far enough: conjuncts that compare one
// property path with a constant (`==`, `!=`, `eq`, `neq`), or a bare path
// and its negation. Anything else is opaque and excludes nothing, so that a
// doubt keeps the clauses together as before.

// mbCond is one conjunct of a test that mbExclusive can reason about.
type mbCond struct {
	path  string // the property path compared, blanks removed
	equal bool   // == rather than !=
	// value is the constant compared with; for a bare path (`flag`, `!flag`)
	// it is nil and equal says whether the path is truthy.
	value *mbConst
	// anyOf, set instead of value, lists the constants a disjunction of
	// equalities on the path allows (`db == 'mysql' || db == 'mariadb'`).
	anyOf []mbConst
}

// mbConst is an OGNL literal.
type mbConst struct {
	kind  mbConstKind
	text  string // the string's content, the number or the boolean as written
	quote byte   // the quote of a string
}

type mbConstKind int

const (
	mbNull mbConstKind = iota
	mbBool
	mbNumber
	mbString
)

// mbExclusive reports whether the tests a and b can never both be true:
// some conjunct of a contradicts some conjunct of b.
func mbExclusive(a, b []mbCond) bool {
	for _, x := range a {
		for _, y := range b {
			if x.contradicts(y) {
				return true
			}
		}
	}
	return false
}

// contradicts reports whether conjuncts c and d can never hold together.
func (c mbCond) contradicts(d mbCond) bool {
	if c.path != d.path {
		return false
	}
	if c.anyOf != nil || d.anyOf != nil {
		return c.disjointFrom(d)
	}
	if (c.value == nil) != (d.value == nil) {
		return false
	}
	switch {
	case c.value == nil:
		return c.equal != d.equal
	case c.equal && d.equal:
		return c.value.distinct(*d.value)
	case c.equal != d.equal:
		return c.value.same(*d.value)
	}
	return false
}

// disjointFrom reports whether c and d, one of them a disjunction of
// equalities and the other one too or an equality, allow no value in
// common.
func (c mbCond) disjointFrom(d mbCond) bool {
	values := func(x mbCond) ([]mbConst, bool) {
		switch {
		case x.anyOf != nil:
			return x.anyOf, true
		case x.equal && x.value != nil:
			return []mbConst{*x.value}, true
		}
		return nil, false
	}
	a, okA := values(c)
	b, okB := values(d)
	if !okA || !okB {
		return false
	}
	for _, x := range a {
		for _, y := range b {
			if !x.distinct(y) {
				return false
			}
		}
	}
	return true
}

// same reports whether k and o are the same literal, so that `x == k` and
// `x != o` contradict each other.
func (k mbConst) same(o mbConst) bool {
	switch {
	case k.kind != o.kind:
		return false
	case k.kind == mbNumber:
		a, errA := strconv.ParseFloat(k.text, 64)
		b, errB := strconv.ParseFloat(o.text, 64)
		return errA == nil && errB == nil && a == b
	case k.kind == mbString:
		return k.quote == o.quote && k.text == o.text
	}
	return k.text == o.text
}

// distinct reports whether no value equals both k and o under OGNL's
// comparison, which converts between numbers and strings (`0 == ”` holds)
// and reads a one-letter single-quoted literal as a character, whose code is
// a number to compare with: the values each literal may equal must not meet.
func (k mbConst) distinct(o mbConst) bool {
	if k.kind == mbNull || o.kind == mbNull {
		return k.kind != o.kind
	}
	mine := k.equals()
	for _, v := range o.equals() {
		for _, w := range mine {
			if v == w {
				return false
			}
		}
	}
	return true
}

// equals lists, as text, the values a non-null literal may equal: itself, and
// the number OGNL may convert it to or from.
func (k mbConst) equals() []string {
	num := func(s string) (string, bool) {
		if strings.TrimSpace(s) == "" {
			return "n:0", true // OGNL reads an empty string as 0
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64), err == nil
	}
	var out []string
	switch k.kind {
	case mbBool:
		n := "n:0"
		if k.text == "true" {
			n = "n:1"
		}
		out = append(out, "b:"+k.text, n)
	case mbNumber:
		if n, ok := num(k.text); ok {
			out = append(out, n)
		} else {
			out = append(out, "s:"+k.text)
		}
	case mbString:
		out = append(out, "s:"+k.text)
		if n, ok := num(k.text); ok {
			out = append(out, n)
		}
		if r := []rune(k.text); len(r) == 1 && k.quote == '\'' {
			out = append(out, "n:"+strconv.Itoa(int(r[0])))
		}
	}
	return out
}

// mbConds reads the conjuncts of an OGNL test that contradicts can use. A
// test with a top-level `or` has none: its conjuncts need not all hold.
func mbConds(test string) []mbCond {
	toks, ok := mbOgnlTokens(test)
	if !ok {
		return nil
	}
	parts, mixed := mbSplit(toks, true)
	if mixed {
		if c, ok := mbAnyOf(toks); ok {
			return []mbCond{c}
		}
		return nil
	}
	var out []mbCond
	for _, p := range parts {
		if c, ok := mbCondOf(p); ok {
			out = append(out, c)
		}
	}
	return out
}

// mbSplit cuts toks at its top-level `and`s (and set) or `or`s, each part
// without the parentheses around it. mixed reports a top-level operator of
// the other kind, which leaves the parts joined otherwise than said.
func mbSplit(toks []mbOgnlToken, and bool) (parts [][]mbOgnlToken, mixed bool) {
	isAnd := func(t mbOgnlToken) bool { return t.word == "and" || t.text == "&&" }
	isOr := func(t mbOgnlToken) bool { return t.word == "or" || t.text == "||" }
	depth, start := 0, 0
	cut := func(end int) {
		p := toks[start:end]
		for len(p) >= 2 && p[0].text == "(" && p[len(p)-1].text == ")" && mbClosesAtEnd(p) {
			p = p[1 : len(p)-1]
		}
		parts = append(parts, p)
		start = end + 1
	}
	for i, t := range toks {
		switch {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth != 0:
		case and && isAnd(t) || !and && isOr(t):
			cut(i)
		case isAnd(t) || isOr(t):
			mixed = true
		}
	}
	cut(len(toks))
	return parts, mixed
}

// mbNullTests reads a test made only of null tests joined by and (`a ==
// null and b != null`): for each path, whether it is compared == null.
// ok is false for any other test.
func mbNullTests(test string) (_ map[string]bool, ok bool) {
	toks, ok := mbOgnlTokens(test)
	if !ok || len(toks) == 0 {
		return nil, false
	}
	parts, mixed := mbSplit(toks, true)
	if mixed {
		return nil, false
	}
	out := map[string]bool{}
	for _, p := range parts {
		c, ok := mbCondOf(p)
		if !ok || c.value == nil || c.value.kind != mbNull {
			return nil, false
		}
		if was, seen := out[c.path]; seen && was != c.equal {
			return nil, false // x == null and x != null: never holds
		}
		out[c.path] = c.equal
	}
	return out, true
}

// mbAnyOf reads a test that is a disjunction of equalities of one path
// with constants (`dbType == 'oracle' || dbType == 'dm'`).
func mbAnyOf(toks []mbOgnlToken) (mbCond, bool) {
	parts, mixed := mbSplit(toks, false)
	if mixed || len(parts) < 2 {
		return mbCond{}, false
	}
	var out mbCond
	for _, p := range parts {
		c, ok := mbCondOf(p)
		if !ok || !c.equal || c.value == nil || out.path != "" && c.path != out.path {
			return mbCond{}, false
		}
		out.path, out.equal = c.path, true
		out.anyOf = append(out.anyOf, *c.value)
	}
	return out, true
}

// mbClosesAtEnd reports whether the parenthesis opening toks closes at its
// last token, so that dropping both leaves one expression.
func mbClosesAtEnd(toks []mbOgnlToken) bool {
	depth := 0
	for i, t := range toks {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i == len(toks)-1
			}
		}
	}
	return false
}

// mbCondOf reads one conjunct: `path op const`, `const op path`, `path` or
// `!path` / `not path`.
func mbCondOf(toks []mbOgnlToken) (mbCond, bool) {
	switch {
	case len(toks) == 1 && toks[0].path:
		return mbCond{path: toks[0].text, equal: true}, true
	case len(toks) == 2 && (toks[0].text == "!" || toks[0].word == "not") && toks[1].path:
		return mbCond{path: toks[1].text, equal: false}, true
	case len(toks) != 3:
		return mbCond{}, false
	}
	var equal bool
	switch op := toks[1]; {
	case op.text == "==" || op.word == "eq":
		equal = true
	case op.text == "!=" || op.word == "neq":
	default:
		return mbCond{}, false
	}
	l, r := toks[0], toks[2]
	if l.lit != nil && r.path {
		l, r = r, l
	}
	if !l.path || r.lit == nil {
		return mbCond{}, false
	}
	return mbCond{path: l.text, equal: equal, value: r.lit}, true
}

// mbOgnlToken is a token of an OGNL expression.
type mbOgnlToken struct {
	text string   // as written; a path without its blanks
	word string   // an operator word (and, or, not, eq, neq), lower case
	path bool     // a property path: a.b.c
	lit  *mbConst // a literal
}

// mbOgnlWords are the OGNL operators spelt as words.
var mbOgnlWords = map[string]bool{"and": true, "or": true, "not": true, "eq": true, "neq": true}

// mbOgnlTokens cuts an OGNL expression into tokens. ok is false for an
// expression it cannot cut (an unclosed string), which then excludes nothing.
// Calls, indexes and every other operator come out as tokens that no
// conjunct form matches, which leaves their conjunct opaque.
func mbOgnlTokens(s string) (_ []mbOgnlToken, ok bool) {
	var toks []mbOgnlToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 || strings.Contains(s[i+1:i+1+j], `\`) {
				return nil, false
			}
			toks = append(toks, mbOgnlToken{text: s[i : i+2+j], lit: &mbConst{kind: mbString, text: s[i+1 : i+1+j], quote: c}})
			i += 2 + j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			if j < len(s) && mbIdentByte(s[j]) {
				// 10L, 1.5d, 0x1F: a suffix or base this reading leaves alone.
				toks = append(toks, mbOgnlToken{text: s[i:j]})
			} else {
				toks = append(toks, mbOgnlToken{text: s[i:j], lit: &mbConst{kind: mbNumber, text: s[i:j]}})
			}
			i = j
		case mbIdentByte(c):
			j := i
			for j < len(s) && (mbIdentByte(s[j]) || s[j] == '.' && j+1 < len(s) && mbIdentByte(s[j+1])) {
				j++
			}
			word := s[i:j]
			switch {
			case j < len(s) && (s[j] == '(' || s[j] == '['):
				// A call or an index: the value is not the path's.
				toks = append(toks, mbOgnlToken{text: word})
			case word == "null":
				toks = append(toks, mbOgnlToken{text: word, lit: &mbConst{kind: mbNull, text: word}})
			case word == "true" || word == "false":
				toks = append(toks, mbOgnlToken{text: word, lit: &mbConst{kind: mbBool, text: word}})
			case mbOgnlWords[word]:
				toks = append(toks, mbOgnlToken{text: word, word: word})
			default:
				toks = append(toks, mbOgnlToken{text: word, path: true})
			}
			i = j
		case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") ||
			strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			toks = append(toks, mbOgnlToken{text: s[i : i+2]})
			i += 2
		default:
			toks = append(toks, mbOgnlToken{text: s[i : i+1]})
			i++
		}
	}
	return toks, true
}

func mbIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
