package java

// The forms of a generated read whose record a method keeps: one record
// (selectByPrimaryKey, selectOneByExample, a list's .get(0)) or each row
// of a list select in a for-each loop.

// forEach reports whether name token j is the variable of a for-each loop:
// `for (X v : list)`.
func (x *javaFile) forEach(j int) bool {
	p := x.opener[j]
	return x.is(j+1, ":") && p >= 1 && x.is(p, "(") && x.is(p-1, "for")
}

// listExpr returns the generated select whose rows the expression [s, e)
// of method body yields, with the select's receiver token: a list select,
// or a local list so read. It returns "", -1 for anything else.
func (x *javaFile) listExpr(s, e, body int) (string, int) {
	if m := x.selectCall(s, e); mbgListReads[m] {
		return m, s
	}
	if e == s+1 && x.isIdent(s) {
		k := x.localDecl(x.toks[s].text, body, s)
		if k >= 0 && x.is(k+1, "=") && !x.reassigned(x.toks[s].text, body, k) {
			if m := x.selectCall(k+2, x.exprEnd(k+2)); mbgListReads[m] {
				return m, k + 2
			}
		}
	}
	return "", -1
}

// readExpr returns the generated select whose one record the expression
// [s, e) of method body yields, with the select's receiver token: a
// single-record select, `….selectByExample(…).get(0)`, or `list.get(0)` of
// a local list so read. It returns "", -1 for anything else.
func (x *javaFile) readExpr(s, e, body int) (string, int) {
	if m := x.selectCall(s, e); m != "" && !mbgListReads[m] {
		return m, s
	}
	// … .get(0) of a list the generated selectByExample returned.
	if e-s < 5 || !x.is(e-4, "get") || !x.is(e-3, "(") || x.toks[e-2].text != "0" || !x.is(e-1, ")") || !x.is(e-5, ".") {
		return "", -1
	}
	return x.listExpr(s, e-5, body)
}

// mbgListReads are the generated selects that return a list; the others
// selectCall knows return one record.
var mbgListReads = map[string]bool{"selectByExample": true, "selectByExampleWithBLOBs": true}
