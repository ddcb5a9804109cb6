package java

import (
	"sync"

	"github.com/guard-sql/guard/internal/stmt"
)

// Syntax is the view of a Java file that a framework package reads to
// find the writes its own calls make: the calls in the file's methods,
// what their receivers are declared as, and what a method shows of a
// local record passed to one (the read it came from, its setters, its own
// methods called). It hides the tokens.
type Syntax struct{ x *javaFile }

// Call is a call `recv.m(…)` (or `this.recv.m(…)`) in a method body, whose
// receiver is a plain name.
type Call struct {
	// Method is the method called; Receiver the receiver's name.
	Method, Receiver string
	// ReceiverType is the receiver's declared type (a local's, else a
	// field's or a parameter's), qualified by the file's import when it has
	// one; empty when guard cannot tell.
	ReceiverType string
	// Host is the name of the method the call stands in.
	Host string
	// Statement reports that the call is a statement of its own: nobody
	// reads its result.
	Statement          bool
	Line, Col, EndLine int
	// name, body: the tokens of the method name and of the '{' of the
	// method body.
	name, body int
}

// Calls returns, in the order of the file, the calls that want keeps:
// want sees the method name and whether the call is a statement of its
// own before anything else is worked out.
func (s Syntax) Calls(want func(method string, statement bool) bool) []Call {
	x := s.x
	t := x.toks
	var out []Call
	for i := 2; i+1 < len(t); i++ {
		if t[i].kind != javaIdent || !x.is(i-1, ".") || !x.is(i+1, "(") || !x.isIdent(i-2) {
			continue
		}
		recv := i - 2
		if x.is(recv-1, ".") && !x.is(recv-2, "this") {
			continue // a.repo.m(): guard does not type a
		}
		close := x.match[i+1]
		statement := x.is(close+1, ";") && x.statementStart(recv)
		if !want(t[i].text, statement) {
			continue
		}
		body := x.methodBlock(i)
		if body < 0 {
			continue
		}
		typ := x.localType(t[recv].text, body, recv)
		if typ == "" {
			typ = x.declaredType(t[recv].text, recv)
		}
		if pkg, ok := x.imports[typ]; ok {
			typ = pkg + "." + typ
		}
		out = append(out, Call{
			Method: t[i].text, Receiver: t[recv].text, ReceiverType: typ, Host: x.blocks[body].name,
			Statement: statement, Line: t[recv].line, Col: t[recv].col, EndLine: t[close].endLine,
			name: i, body: body,
		})
	}
	return out
}

// NameArgument returns argument k of c when it is one plain name.
func (s Syntax) NameArgument(c Call, k int) (string, bool) {
	x := s.x
	return x.singleName(x.split(c.name+2, x.match[c.name+1], ","), k)
}

// Record is what the method of a call shows, before the call, of a local
// record: its declared type, the read it came from (nil when it was not
// read in the method), the setters called on it and its own methods
// called (`stock.decrease(n)`).
type Record struct {
	Type  string
	Read  *stmt.MapperRead
	Sets  []stmt.PropertySet
	Calls []stmt.RecordCall
}

// Record returns what the method of c shows of the local record name.
func (s Syntax) Record(c Call, name string) Record {
	x := s.x
	recv := c.name - 2
	r := Record{Type: x.localType(name, c.body, recv)}
	if r.Type == "" {
		r.Type = x.declaredType(name, recv)
	}
	r.Read = x.localRead(name, c.body, recv)
	r.Sets = x.propertySets(name, c.body, recv)
	r.Calls = x.recordCalls(name, c.body, recv)
	return r
}

// statementStart reports whether the expression whose first token is k
// (the receiver of a call, or this of this.repo) starts a statement.
func (x *javaFile) statementStart(k int) bool {
	if x.is(k-1, ".") && x.is(k-2, "this") {
		k -= 2
	}
	switch {
	case x.is(k-1, ";") || x.is(k-1, "{") || x.is(k-1, "}") || x.is(k-1, "else"):
		return true
	case x.is(k-1, ")"):
		// if (…) repo.m(); for (…) repo.m();
		o := x.match[k-1]
		return o > 0 && (x.is(o-1, "if") || x.is(o-1, "for") || x.is(o-1, "while"))
	}
	return false
}

// A CallReader finds, in a Java file, the writes of one framework's calls
// (see Syntax). A framework package registers it with RegisterCalls, in its
// init; the extractor runs every reader on every file it reads.
type CallReader func(Syntax) []stmt.MapperCall

var callReaders struct {
	sync.Mutex
	list []CallReader
}

// RegisterCalls adds a framework's reader of calls.
func RegisterCalls(r CallReader) {
	callReaders.Lock()
	defer callReaders.Unlock()
	callReaders.list = append(callReaders.list, r)
}

// frameworkCalls runs the registered readers of calls on the file.
func (x *javaFile) frameworkCalls() []stmt.MapperCall {
	callReaders.Lock()
	readers := callReaders.list
	callReaders.Unlock()
	var out []stmt.MapperCall
	for _, r := range readers {
		out = append(out, r(Syntax{x})...)
	}
	return out
}
