package validation

// branchTells reports whether a branch around token at tests subj: the
// then-statement of an if whose condition holds only for a member of a
// fixed list, its else when the condition fails only for one, or an arm of
// a switch on subj with constant labels. With allowEmpty, a test that subj
// is null or empty counts too.
func (c *code) branchTells(subj subject, body, at int, allowEmpty bool) bool {
	ok := func(f fact) bool { return f == member || allowEmpty && f == empty }
	if cs, ce, found := c.bareBranch(at, body); found && ok(c.whenTrue(cs, ce, subj)) {
		return true
	}
	for b := c.t.Enclosing(at); b > body; b = c.t.Enclosing(b) {
		if c.is(b-1, ")") {
			open := c.t.Match(b - 1)
			switch {
			case c.is(open-1, "if") && ok(c.whenTrue(open+1, b-1, subj)):
				return true
			case c.is(open-1, "switch") && c.isSubject(open+1, b-1, subj) && c.inCase(b, at):
				return true
			}
		}
		if c.is(b-1, "else") && c.is(b-2, "}") {
			then := c.t.Match(b - 2)
			if c.is(then-1, ")") {
				open := c.t.Match(then - 1)
				if c.is(open-1, "if") && ok(c.whenFalse(open+1, then-1, subj)) {
					return true
				}
			}
		}
	}
	return false
}

// bareBranch returns the condition of the if whose then-statement, written
// without braces, holds token at: `if (ALLOWED.contains(x)) use(x);`.
func (c *code) bareBranch(at, body int) (int, int, bool) {
	for j := at - 1; j > body; j-- {
		switch {
		case c.is(j, ";") || c.is(j, "{") || c.is(j, "}"):
			return 0, 0, false
		case c.is(j, ")") || c.is(j, "]"):
			open := c.t.Match(j)
			if open < 0 {
				return 0, 0, false
			}
			if c.is(j, ")") && c.is(open-1, "if") {
				return open + 1, j, true
			}
			j = open
		}
	}
	return 0, 0, false
}

// inCase reports whether token at stands in an arm of the switch block
// opened at '{' blk whose labels are constants (not its default).
func (c *code) inCase(blk, at int) bool {
	label := -1
	for k := blk + 1; k < at; k++ {
		if c.t.Enclosing(k) == blk && (c.is(k, "case") || c.is(k, "default")) {
			label = k
		}
	}
	if label < 0 || !c.is(label, "case") {
		return false
	}
	end := label + 1
	for end < at && !c.is(end, ":") && !c.is(end, "->") {
		end++
	}
	return c.constant(label+1, end)
}

// guardBefore reports whether a check before token at, in a block that
// holds at, leaves subj a member of a fixed list: an if whose condition
// fails only for a member and whose then-statement throws, returns or
// assigns subj a constant; a switch on subj whose default throws or
// returns; an assertion (Assert.isTrue, Preconditions.checkArgument) of a
// membership. subj is not assigned again between the check and at.
func (c *code) guardBefore(subj subject, body, at int) bool {
	for k := body + 1; k < at; k++ {
		if !c.ident(k) || !c.encloses(c.t.Enclosing(k), at) {
			continue
		}
		switch {
		case c.is(k, "if") && c.is(k+1, "("):
			condEnd := c.t.Match(k + 1)
			then := condEnd + 1
			thenEnd := c.branchEnd(then)
			if condEnd < 0 || thenEnd >= at || c.whenFalse(k+2, condEnd, subj) != member {
				continue
			}
			if (c.abrupt(then, thenEnd) || c.replaces(then, thenEnd, subj)) && !c.reassigned(subj, thenEnd, at) {
				return true
			}
		case c.is(k, "switch") && c.is(k+1, "(") && c.isSubject(k+2, c.t.Match(k+1), subj):
			blk := c.t.Match(k+1) + 1
			if c.is(blk, "{") && c.t.Match(blk) < at && c.defaultAbrupt(blk) && !c.reassigned(subj, c.t.Match(blk), at) {
				return true
			}
		case c.assertion(k, subj) && !c.reassigned(subj, k, at):
			return true
		}
	}
	return false
}

// branchEnd returns the last token of the statement that starts at then:
// its block's '}' or its ';'.
func (c *code) branchEnd(then int) int {
	if c.is(then, "{") {
		return c.t.Match(then)
	}
	return c.statementEnd(then, c.t.Len())
}

// abrupt reports whether the statement [then, end] leaves the method: a
// throw or a return, or a block whose last statement is one.
func (c *code) abrupt(then, end int) bool {
	if !c.is(then, "{") {
		return c.is(then, "throw") || c.is(then, "return")
	}
	if !c.is(end-1, ";") {
		return false
	}
	j := end - 2
	for j > then && !c.is(j, ";") && !c.is(j, "{") && !c.is(j, "}") {
		if c.is(j, ")") || c.is(j, "]") {
			j = c.t.Match(j)
		}
		j--
	}
	return c.is(j+1, "throw") || c.is(j+1, "return")
}

// replaces reports whether the statement [then, end] assigns subj, a name,
// a constant: `x = DEFAULT_SORT;`.
func (c *code) replaces(then, end int, subj subject) bool {
	s := then
	if c.is(then, "{") {
		s, end = then+1, end-1
	}
	if subj.n != 1 || !c.isSubject(s, s+1, subj) || !c.is(s+1, "=") || !c.is(end, ";") || c.statementEnd(s, end+1) != end {
		return false
	}
	return c.constant(s+2, end)
}

// reassigned reports whether subj, a name, is assigned between tokens from
// and to.
func (c *code) reassigned(subj subject, from, to int) bool {
	if subj.n != 1 {
		return false
	}
	for k := from + 1; k < to; k++ {
		if c.isSubject(k, k+1, subj) && !c.is(k-1, ".") && (c.is(k+1, "=") || c.is(k+1, "+=")) {
			return true
		}
	}
	return false
}

// assertions are the methods that throw unless their first argument holds.
var assertions = map[string]bool{"isTrue": true, "checkArgument": true, "checkState": true, "state": true}

// assertion reports whether a statement starting at token k asserts that
// subj is a member: `Assert.isTrue(ALLOWED.contains(x), "…")`.
func (c *code) assertion(k int, subj subject) bool {
	if !upper(c.text(k)) || !c.is(k+1, ".") || !assertions[c.text(k+2)] || !c.is(k+3, "(") {
		return false
	}
	if !c.is(k-1, ";") && !c.is(k-1, "{") && !c.is(k-1, "}") {
		return false
	}
	args := c.split(k+4, c.t.Match(k+3), ",")
	return c.whenTrue(args[0][0], args[0][1], subj) == member
}

// defaultAbrupt reports whether the switch block opened at blk has
// constant labels and a default arm that throws or returns.
func (c *code) defaultAbrupt(blk int) bool {
	end := c.t.Match(blk)
	found := false
	for k := blk + 1; k < end; k++ {
		if c.t.Enclosing(k) != blk {
			continue
		}
		switch {
		case c.is(k, "case"):
			j := k + 1
			for j < end && !c.is(j, ":") && !c.is(j, "->") {
				j++
			}
			if !c.constant(k+1, j) {
				return false
			}
		case c.is(k, "default") && (c.is(k+1, ":") || c.is(k+1, "->")):
			arm := k + 2
			if c.is(arm, "{") {
				arm++
			}
			found = c.is(arm, "throw") || c.is(arm, "return")
		}
	}
	return found
}
