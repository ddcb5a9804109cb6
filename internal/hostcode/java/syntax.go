package java

import (
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// Syntax is the view of a Java file that a framework package reads to
// find the writes its own calls make: the calls in the file's methods,
// what their receivers are declared as, and what a method shows of a
// local record passed to one (the read it came from, its setters, its own
// methods called). It hides the tokens, but for Tokens.
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
	r := Record{Type: x.recordType(name, c.body, recv)}
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

// Method is a method of the file with a body.
type Method struct {
	Name string
	// Public reports a public modifier in its header.
	Public bool
	// Annotations are the annotations of its header, the one nearest its
	// name first; ClassAnnotations those of the header of the class whose
	// body holds it (none when that is no class).
	Annotations, ClassAnnotations []Annotation
	body                          int
}

// Methods returns the methods of the file that have a body, in the order
// of the file.
func (s Syntax) Methods() []Method {
	x := s.x
	var bodies []int
	for body, b := range x.blocks {
		if b.kind == javaBlockMethod {
			bodies = append(bodies, body)
		}
	}
	slices.Sort(bodies)
	var out []Method
	for _, body := range bodies {
		m := Method{Name: x.blocks[body].name, body: body}
		if name := x.methodName(body); name >= 0 {
			m.Annotations = x.headerAnnotations(name, &m.Public)
		}
		if class := x.encl[body]; class >= 0 && x.blocks[class].kind == javaBlockType {
			for k := class - 1; k >= 0 && !x.is(k, ";") && !x.is(k, "}") && !x.is(k, "{"); k-- {
				if x.is(k, "class") && x.isIdent(k+1) {
					var public bool
					m.ClassAnnotations = x.headerAnnotations(k, &public)
					break
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// ReadLocal is a local variable of a method initialised by a read that
// guard recognises (stmt.MapperRead): `P p = repo.findById(id).orElseThrow()`,
// or the variable of `for (P p : repo.findAllById(ids))`.
type ReadLocal struct {
	Name string
	// Type is its declared type; Read the read.
	Type string
	Read *stmt.MapperRead
	// ReceiverType is the declared type of the receiver of the call that
	// reads it (of a local list's initialiser, for a for-each over one),
	// qualified by the file's import; empty when it is not a plain name.
	ReceiverType string
}

// ReadLocals returns the locals of method m that a read initialises, in
// the order of the method.
func (s Syntax) ReadLocals(m Method) []ReadLocal {
	x := s.x
	body := m.body
	end := x.match[body]
	var out []ReadLocal
	for j := body + 1; j+2 < end; j++ {
		if !x.isIdent(j) || !x.is(j+1, "=") && !x.is(j+1, ":") || x.encl[j] < 0 || x.methodBlock(j) != body {
			continue
		}
		name := x.toks[j].text
		if x.localDecl(name, body, j+1) != j {
			continue
		}
		read := x.localRead(name, body, j+1)
		if read == nil {
			continue
		}
		l := ReadLocal{Name: name, Type: x.localType(name, body, j+1), Read: read}
		recv := j + 2
		if x.is(j+1, ":") && x.isIdent(recv) && x.is(recv+1, ")") {
			// over a local list: its initialiser's receiver
			if k := x.localDecl(x.toks[recv].text, body, recv); k >= 0 {
				recv = k + 2
			}
		}
		if x.isIdent(recv) {
			l.ReceiverType = x.declaredType(x.toks[recv].text, recv)
			if pkg, ok := x.imports[l.ReceiverType]; ok {
				l.ReceiverType = pkg + "." + l.ReceiverType
			}
		}
		out = append(out, l)
	}
	return out
}

// RecordIn returns what the whole of method m shows of its local record
// name: the setters called on it and its own methods called.
func (s Syntax) RecordIn(m Method, name string) Record {
	x := s.x
	end := x.match[m.body]
	return Record{Sets: x.propertySets(name, m.body, end), Calls: x.recordCalls(name, m.body, end)}
}

// Column returns the column of the first token on line in method m; 1
// when none stands there.
func (s Syntax) Column(m Method, line int) int {
	x := s.x
	for k := m.body; k < x.match[m.body]; k++ {
		if x.toks[k].line == line {
			return x.toks[k].col
		}
	}
	return 1
}

// Imported returns the package an explicit import of the file gives the
// simple name, "" when none does.
func (s Syntax) Imported(simple string) string { return s.x.imports[simple] }

// Annotated reports whether an annotation of the file is written with a
// name that ends in suffix (".Transactional").
func (s Syntax) Annotated(suffix string) bool {
	for _, t := range s.x.toks {
		if t.kind == javaAnnot && strings.HasSuffix(t.text, suffix) {
			return true
		}
	}
	return false
}

// methodName returns the name token of the method whose body opens at
// token body, -1 when it has none guard can find.
func (x *javaFile) methodName(body int) int {
	k := x.headEnd(body)
	if !x.is(k, ")") || !x.isIdent(x.match[k]-1) {
		return -1
	}
	return x.match[k] - 1
}

// headerAnnotations returns the annotations of the declaration whose name
// (or class keyword) is token k, the nearest first, walking back over its
// type, modifiers and annotations; public reports a public modifier.
func (x *javaFile) headerAnnotations(k int, public *bool) []Annotation {
	var out []Annotation
	for j := k - 1; j >= 0; j-- {
		t := x.toks[j]
		switch {
		case t.kind == javaAnnot:
			out = append(out, x.annotationAt(j))
		case x.is(j, ")") && x.match[j] >= 1 && x.toks[x.match[j]-1].kind == javaAnnot:
			j = x.match[j]
		case t.kind == javaIdent:
			*public = *public || t.text == "public"
		case x.is(j, ".") || x.is(j, "<") || x.is(j, ">") || x.is(j, ",") || x.is(j, "[") || x.is(j, "]") || x.is(j, "?"):
		default:
			return out
		}
	}
	return out
}

// recordCalls lists the calls `name.m(…)` of record name in method body
// before token before that are not setters or getters.
func (x *javaFile) recordCalls(name string, body, before int) []stmt.RecordCall {
	var out []stmt.RecordCall
	from := body + 1
	if d := x.localDecl(name, body, before); d >= 0 {
		from = d + 1
	}
	for j := from; j+3 < before; j++ {
		if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") || !x.is(j+1, ".") || !x.isIdent(j+2) || !x.is(j+3, "(") {
			continue
		}
		m := x.toks[j+2].text
		accessor := false
		for _, p := range []string{"set", "get", "is"} {
			if rest, ok := strings.CutPrefix(m, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
				accessor = true
			}
		}
		if accessor {
			continue
		}
		close := x.match[j+3]
		out = append(out, stmt.RecordCall{Method: m, Text: x.describe(j, close+1), Line: x.toks[j].line})
		j = close
	}
	return out
}
