package java

import "strings"

// ClauseSet is a Java call that hands a MyBatis Generator Example a clause
// string its mapper pastes with ${…}: `example.setOrderByClause("sort
// desc")`. guard lint gathers them from every Java file so that GQ010 can
// tell an orderByClause only constants reach from one a caller builds.
type ClauseSet struct {
	// Property is the Example property set, e.g. "orderByClause".
	Property string
	// Example is the simple name of the receiver's declared type when the
	// file declares it (PmsBrandExample); empty when unknown.
	Example string
	// Constant reports whether the argument is built from string literals
	// and constants (ALL_CAPS names) only.
	Constant  bool
	Line, Col int
}

// clauseSetters maps the setter of each Example clause property to it.
var clauseSetters = map[string]string{"setOrderByClause": "orderByClause"}

// clauseSets finds the Example clause setters of a Java file.
func (x *javaFile) clauseSets() []ClauseSet {
	var out []ClauseSet
	t := x.toks
	for i := 2; i+1 < len(t); i++ {
		prop, ok := clauseSetters[t[i].text]
		if !ok || t[i].kind != javaIdent || !x.is(i-1, ".") || !x.is(i+1, "(") {
			continue
		}
		cs := ClauseSet{Property: prop, Line: t[i].line, Col: t[i].col, Constant: true}
		if r := x.chainStart(i); r < i && x.isIdent(r) {
			cs.Example = x.declaredType(t[r].text, r)
		}
		if cs.Example == "" {
			// criteria.example().setOrderByClause(…): the file's one
			// Example class, when it names only one.
			cs.Example = x.onlyExample()
		}
		end := x.match[i+1]
		if end <= i+2 {
			cs.Constant = false // no argument: nothing to vouch for
		}
		for j := i + 2; j < end; j++ {
			if !x.constantToken(j) {
				cs.Constant = false
				break
			}
		}
		out = append(out, cs)
	}
	return out
}

// constantToken reports whether token j of an argument keeps it constant: a
// string literal, a concatenation, parentheses, and names reached from a
// class (BY_SORT, Order.Column.addTime.desc()): a lower-case name that no
// dot qualifies is a variable or a parameter, whose value a caller decides.
func (x *javaFile) constantToken(j int) bool {
	tok := x.toks[j]
	switch tok.kind {
	case javaString:
		return true
	case javaOp:
		return tok.text == "+" || tok.text == "(" || tok.text == ")" || tok.text == "."
	case javaIdent:
		if tok.text == strings.ToUpper(tok.text) || (tok.text[0] >= 'A' && tok.text[0] <= 'Z') {
			return true
		}
		return x.is(j-1, ".") && !x.is(j-2, "this")
	}
	return false
}

// onlyExample returns the one MyBatis Generator Example class a file names
// (an upper-case identifier ending in Example), or "" when it names none or
// several.
func (x *javaFile) onlyExample() string {
	found := ""
	for _, tok := range x.toks {
		if tok.kind != javaIdent || len(tok.text) <= len("Example") || !strings.HasSuffix(tok.text, "Example") || tok.text[0] < 'A' || tok.text[0] > 'Z' {
			continue
		}
		if found != "" && found != tok.text {
			return ""
		}
		found = tok.text
	}
	return found
}

// declaredType returns the simple type name a local variable, field or
// parameter named name is declared with before token i (`PmsBrandExample
// example = …`, `(OmsOrderExample ex)`), or "" when none is found.
func (x *javaFile) declaredType(name string, i int) string {
	t := x.toks
	for j := i - 1; j >= 1; j-- {
		if t[j].kind != javaIdent || t[j].text != name || t[j-1].kind != javaIdent {
			continue
		}
		if j+1 < len(t) && (x.is(j+1, "=") || x.is(j+1, ";") || x.is(j+1, ",") || x.is(j+1, ")")) {
			typ := t[j-1].text
			if typ == "var" || typ == "final" || typ == "return" || typ == "new" {
				continue
			}
			// PmsBrandExample.Criteria criteria: the Example it belongs to.
			if j >= 3 && x.is(j-2, ".") && strings.HasSuffix(t[j-3].text, "Example") {
				return t[j-3].text
			}
			return typ
		}
	}
	return ""
}
