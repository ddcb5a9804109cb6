package java

import "github.com/guard-sql/guard/internal/stmt"

// ReadCall is a call that initialises a local variable, or that a for-each
// loops over: a plain receiver, its method and the calls chained after it
// (`repo.findById(id).orElseThrow()`). A framework tells from it whether
// the local holds a record it read (Framework.ReadOne, ReadMany).
type ReadCall struct {
	// Receiver is the receiver's name, ReceiverType its declared type as
	// written (simple), empty when guard cannot find it.
	Receiver, ReceiverType string
	// Method is the method called, Args the source of its arguments.
	Method, Args string
	// Then are the calls chained after it, in order.
	Then []Chained
	// Declared is the type the local is declared with when it is one name
	// (var, Product), empty for a generic or array type or a loop's list.
	Declared string
}

// Chained is a call chained after another: its method and the source of
// its arguments on one line.
type Chained struct{ Method, Args string }

// readCall reads tokens [s, e) as a ReadCall; false when they are
// something else.
func (x *javaFile) readCall(s, e int) (ReadCall, bool) {
	if e-s < 5 || !x.isIdent(s) || !x.is(s+1, ".") || !x.isIdent(s+2) || !x.is(s+3, "(") {
		return ReadCall{}, false
	}
	c := ReadCall{Receiver: x.toks[s].text, ReceiverType: x.declaredType(x.toks[s].text, s), Method: x.toks[s+2].text, Args: x.source(s+4, x.match[s+3])}
	k := x.match[s+3] + 1
	for k < e && x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		close := x.match[k+2]
		c.Then = append(c.Then, Chained{Method: x.toks[k+1].text, Args: x.source(k+3, close)})
		k = close + 1
	}
	return c, k == e
}

// frameworkRead returns the read of one record that initialises the local
// declared at name token j, whose value is tokens [s, e), as a registered
// framework tells it; "" for none.
func (x *javaFile) frameworkRead(j, s, e int) string {
	c, ok := x.readCall(s, e)
	if !ok {
		return ""
	}
	if x.isIdent(j - 1) {
		c.Declared = x.toks[j-1].text
	}
	return frameworkReads(c, func(fw Framework) func(ReadCall) string { return fw.ReadOne })
}

// loopRead returns the read of the for-each variable name declared at
// token j of method body, as a registered framework tells it: `for (P p :
// repo.findByIdIn(ids))`, or over a local list so read; nil for anything
// else.
func (x *javaFile) loopRead(name string, j, body int) *stmt.MapperRead {
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
	c, ok := x.readCall(s, e)
	if !ok || len(c.Then) > 0 {
		return nil
	}
	if m := frameworkReads(c, func(fw Framework) func(ReadCall) string { return fw.ReadMany }); m != "" {
		return &stmt.MapperRead{Variable: name, Method: m, Line: x.toks[j].line}
	}
	return nil
}
