package java

// The partial update of an edit form: `if (req.getStatus() != null)
// e.setStatus(req.getStatus());` copies a field only when the caller sent
// it. lint tells such a copy of the caller's value from a state the code
// moves (see PropertySet.Optional).

// presenceCalls are the methods that test a value for presence.
var presenceCalls = map[string]bool{
	"nonNull": true, "isNotNull": true, "notNull": true, "hasText": true, "hasLength": true,
	"isNotBlank": true, "isNotEmpty": true,
}

// presenceChecked reports whether the statement starting at token stmt runs
// only when the value of tokens [s, e) is present: it is the statement, or
// stands in the block, of an if whose condition compares that same value
// with null or passes it to a presence test (Objects.nonNull,
// StringUtils.hasText, isNotBlank, …).
func (x *javaFile) presenceChecked(stmt, s, e int) bool {
	if s >= e {
		return false
	}
	open := x.enclosingIf(stmt)
	if open < 0 {
		return false
	}
	n := e - s
	for k := open + 1; k+n <= x.match[open]; k++ {
		if !x.sameTokens(k, s, n) {
			continue
		}
		after := k + n
		switch {
		case x.is(after, "!=") && x.is(after+1, "null"),
			x.is(k-1, "!=") && x.is(k-2, "null"),
			x.is(k-1, "(") && x.isIdent(k-2) && presenceCalls[x.toks[k-2].text] && x.is(after, ")"):
			return true
		}
	}
	return false
}

// enclosingIf returns the opening parenthesis of the condition of the if
// whose statement, or whose block, holds the statement starting at token
// stmt directly; -1 when there is none.
func (x *javaFile) enclosingIf(stmt int) int {
	ifCond := func(closeParen int) int {
		if !x.is(closeParen, ")") {
			return -1
		}
		if open := x.match[closeParen]; open > 0 && x.is(open-1, "if") {
			return open
		}
		return -1
	}
	if o := ifCond(stmt - 1); o >= 0 {
		return o // if (…) stmt;
	}
	for k := stmt - 1; k > 0; k-- {
		switch {
		case x.is(k, "}") && x.match[k] >= 0:
			k = x.match[k] // an earlier block of the same one
		case x.is(k, "{"):
			return ifCond(k - 1)
		}
	}
	return -1
}

// sameTokens reports whether the n tokens from a read as the n tokens from b.
func (x *javaFile) sameTokens(a, b, n int) bool {
	for i := 0; i < n; i++ {
		if a+i >= len(x.toks) || x.toks[a+i].text != x.toks[b+i].text {
			return false
		}
	}
	return true
}
