package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// The members of a file's types, for a framework that maps classes to
// tables or reads the SQL of annotations (JPA's entities and Spring Data's
// repositories): fields and methods with the annotations and modifiers
// before them, what an annotation's attribute evaluates to, and the
// assignments a method makes to fields. A framework reads them while the
// file is extracted (Framework.Declarations), so that the SQL it reports and
// the constants it reads are the file's like any other.

// Types returns the types the file declares, the nested ones as Inner.
func (s Syntax) Types() []TypeDecl { return s.x.typeDecls() }

// Package returns the file's package, "" for none.
func (s Syntax) Package() string { return s.x.packageName() }

// Imports returns the names the file's imports give, as written without
// the static keyword: com.x.Product, com.x.*, com.x.Constants.MAX.
func (s Syntax) Imports() []string { return s.x.importNames }

// Member is a declaration of a type's body: a field or a method.
type Member struct {
	// Name is the field's name (empty when the declaration names several
	// or cannot be read) or the method's.
	Name string
	// Type is the last part of the type name the declaration starts with
	// (a field's type, a method's result type), without type arguments.
	Type string
	// Result is a method's result type when it is a plain name (void,
	// int, Product), empty for a generic or array one.
	Result string
	// Method reports a method, NoParams that it takes no parameters.
	Method, NoParams bool
	// Static and Transient report those modifiers.
	Static, Transient bool
	// Annotations are the annotations before it, in the order written.
	Annotations []Annotation
	// body is the '{' of a method's body, -1 for none; params the '(' of
	// its parameter list, -1 for a field.
	body, params int
}

// Members returns the fields and methods of type t's body, in order. A
// method is a member only when its parameter list ends its head (no
// throws clause); an initialiser, a nested type or a constructor's body
// is none.
func (s Syntax) Members(t TypeDecl) []Member {
	x := s.x
	body := t.body
	if body < 0 {
		return nil
	}
	var out []Member
	start := body + 1
	for k := body + 1; k < x.match[body]; k++ {
		switch {
		case x.is(k, "(") || x.is(k, "["):
			k = x.match[k]
		case x.is(k, "{"):
			if x.is(k-1, ")") {
				if m, ok := x.member(start, k); ok && m.Method {
					m.body = k
					out = append(out, m)
				}
			}
			k = x.match[k]
			start = k + 1
		case x.is(k, ";"):
			if m, ok := x.member(start, k); ok {
				out = append(out, m)
			}
			start = k + 1
		}
	}
	return out
}

// HasBody reports that m is a method with a body.
func (m Member) HasBody() bool { return m.body >= 0 }

// member reads the declaration in tokens [s, e), e its ';' or the '{' of
// its body.
func (x *javaFile) member(s, e int) (Member, bool) {
	m := Member{body: -1, params: -1}
	k := s
	for ; k < e; k++ {
		t := x.toks[k]
		if t.kind == javaIdent && javaModifiers[t.text] {
			m.Static = m.Static || t.text == "static"
			m.Transient = m.Transient || t.text == "transient"
			continue
		}
		if t.kind != javaAnnot {
			break
		}
		m.Annotations = append(m.Annotations, x.annotationAt(k))
		if x.is(k+1, "(") {
			k = x.match[k+1]
		}
	}
	k = x.skipTypeArgs(k) // a generic method's type parameters
	if k >= e || !x.isIdent(k) || javaNotType[x.toks[k].text] || x.toks[k].text == "class" {
		return Member{}, false
	}
	m.Type = x.toks[k].text
	// The name before '=' or the end at the top level; a '(' first makes
	// it a method.
	end := e
	for j := k; j < e; j++ {
		if x.is(j, "=") {
			end = j
			break
		}
		if x.is(j, "(") {
			if j-1 < k || !x.isIdent(j-1) || x.is(e, "{") && x.match[j] != e-1 {
				return Member{}, false
			}
			m.Method, m.Name, m.params = true, x.toks[j-1].text, j
			m.NoParams = x.match[j] == j+1
			if x.isIdent(j-2) && j-2 >= k {
				m.Result = x.toks[j-2].text
			}
			for i := k; i+1 < j-1 && x.is(i+1, "."); i += 2 {
				m.Type = x.toks[i+2].text
			}
			return m, true
		}
		if x.is(j, ",") && !x.inTypeArgs(k, j) {
			return m, true // several names
		}
	}
	if end-1 <= k || !x.isIdent(end-1) {
		return m, true
	}
	for j := k; j+1 < end-1 && x.is(j+1, "."); j += 2 {
		m.Type = x.toks[j+2].text // java.util.Date
	}
	m.Name = x.toks[end-1].text
	return m, true
}

// inTypeArgs reports whether token j stands inside the <…> of a type that
// starts at token k.
func (x *javaFile) inTypeArgs(k, j int) bool {
	depth := 0
	for i := k; i < j; i++ {
		switch {
		case x.is(i, "<"):
			depth++
		case x.is(i, ">"):
			depth--
		}
	}
	return depth > 0
}

// Value is what an expression of the file evaluates to as a string.
type Value struct {
	// Text is what is known, with the file positions of its characters.
	Text Text
	// Known reports that every part is known in this file; Dynamic
	// describes the parts that are not.
	Known   bool
	Dynamic []string
	// Foreign reports that every part not known is a constant of another
	// file; Stringy that a string takes part.
	Foreign, Stringy bool
	// Line and Col are where the expression starts.
	Line, Col int
}

// AnnotationValue evaluates attribute attr of annotation a ("value" also
// the bare first one) and reports whether a writes it. The constants it
// reads count as pieces of a larger text: none is reported as SQL of its
// own for it.
func (s Syntax) AnnotationValue(a Annotation, attr string) (Value, bool) {
	x := s.x
	vs, ve := x.attribute(a, attr)
	if vs < 0 {
		return Value{}, false
	}
	return x.value(vs, ve), true
}

// AnnotationValues is AnnotationValue of the value attribute, an array
// initialiser ({"a", "b"}) read as its elements.
func (s Syntax) AnnotationValues(a Annotation) ([]Value, bool) {
	x := s.x
	vs, ve := x.attribute(a, "value")
	if vs < 0 {
		return nil, false
	}
	pieces := []javaRange{{vs, ve}}
	if x.is(vs, "{") && x.match[vs] == ve-1 {
		pieces = x.split(vs+1, ve-1, ",")
	}
	var out []Value
	for _, p := range pieces {
		if p.s < p.e { // not after a trailing comma
			out = append(out, x.value(p.s, p.e))
		}
	}
	return out, true
}

// attribute returns the tokens of attribute attr of annotation a, -1 when
// it writes none.
func (x *javaFile) attribute(a Annotation, attr string) (int, int) {
	if !x.is(a.at+1, "(") {
		return -1, -1
	}
	closing := x.match[a.at+1]
	if attr == "value" {
		return x.annotationValue(a.at+2, closing)
	}
	for _, el := range x.split(a.at+2, closing, ",") {
		if x.isIdent(el.s) && x.toks[el.s].text == attr && x.is(el.s+1, "=") {
			return el.s + 2, el.e
		}
	}
	return -1, -1
}

// value evaluates tokens [s, e); the constants it reads count as pieces.
func (x *javaFile) value(s, e int) Value {
	ev := x.eval(s, e, 0)
	for _, r := range ev.refs {
		r.usedOther = true
	}
	return Value{
		Text: ev.text, Known: ev.known(), Dynamic: ev.dynamic, Stringy: ev.stringy,
		Foreign: ev.foreign == len(ev.dynamic), Line: x.toks[s].line, Col: x.toks[s].col,
	}
}

// Annotations returns the annotations with arguments of the whole file
// whose simple name want keeps, in order.
func (s Syntax) Annotations(want func(simple string) bool) []Annotation {
	x := s.x
	var out []Annotation
	for i, t := range x.toks {
		if t.kind == javaAnnot && x.is(i+1, "(") && want(t.text[strings.LastIndexByte(t.text, '.')+1:]) {
			out = append(out, x.annotationAt(i))
		}
	}
	return out
}

// AnnotatedMethod returns the name of the method annotation a stands on,
// "" when it stands on none.
func (s Syntax) AnnotatedMethod(a Annotation) string {
	return s.x.annotatedMethod(s.x.annotationEnd(a))
}

// AddUnchecked reports annotation a as SQL that cannot be checked, for the
// statement id, unless a fragment already holds it (then it returns nil).
func (s Syntax) AddUnchecked(a Annotation, reason, id string) *stmt.Fragment {
	return s.x.addUnchecked(a.at, s.x.annotationEnd(a), reason, id)
}

// AddFragment adds a fragment the framework made itself (a rendered
// <script>) to the file's.
func (s Syntax) AddFragment(fr *stmt.Fragment) { s.x.frags = append(s.x.frags, fr) }

// Path returns the file's path as findings name it.
func (s Syntax) Path() string { return s.x.path }

// Span returns the column annotation a starts at and the line it ends on.
func (s Syntax) Span(a Annotation) (col, endLine int) {
	return s.x.toks[a.at].col, s.x.toks[s.x.annotationEnd(a)-1].endLine
}

// Claim marks annotation a as read by a framework, so that no other
// reader reports the SQL it holds; false when one already did.
func (s Syntax) Claim(a Annotation) bool {
	return s.x.claim(a.at, s.x.annotationEnd(a))
}

// AddSQL reports text, held by annotation a, as a fragment of the file for
// the statement id.
func (s Syntax) AddSQL(a Annotation, text Text, id string) *stmt.Fragment {
	return s.x.addSQL(text, a.at, s.x.annotationEnd(a), id)
}

// annotationEnd is the token after annotation a and its arguments.
func (x *javaFile) annotationEnd(a Annotation) int {
	if x.is(a.at+1, "(") {
		return x.match[a.at+1] + 1
	}
	return a.at + 1
}

// Assignment is an assignment to a field in a method: `this.quantity -= n`.
type Assignment struct {
	Field string
	// Relative reports that the new value is computed from the field
	// itself (-=, +=, `quantity = quantity - n`).
	Relative bool
	// Form is what the assigned value is made of when it is not relative.
	Form stmt.ValueForm
	// Checked reports that the method reads the field in the condition of
	// an if, a switch or a while before it: `if (status != PAID) throw …`.
	Checked bool
	// Text is the assignment's source, on one line.
	Text string
}

// Assignments returns the assignments method m makes to the fields that
// field keeps (an inherited one too); a parameter or local of a field's
// name shadows it.
func (s Syntax) Assignments(m Member, field func(name string) bool) []Assignment {
	x := s.x
	k := m.body
	if k < 0 || x.blocks[k] == nil || x.blocks[k].kind != javaBlockMethod {
		return nil
	}
	var out []Assignment
	params := x.match[k-1]
	for j := k + 1; j < x.match[k]; j++ {
		if a, ok := x.assignment(j, params, k, field); ok {
			out = append(out, a)
		}
	}
	return out
}

// assignment reads an assignment to a field at token j of the method whose
// parameter list opens at token params and whose body opens at token body.
func (x *javaFile) assignment(j, params, body int, field func(string) bool) (Assignment, bool) {
	name, start := "", j
	switch {
	case x.is(j, "this") && x.is(j+1, ".") && x.isIdent(j+2) && !x.is(j-1, "."):
		name, j = x.toks[j+2].text, j+2
	case x.isIdent(j) && !x.is(j-1, ".") && !x.isIdent(j-1) && !x.is(j-1, ">") && !x.is(j-1, "]"):
		name = x.toks[j].text
		if x.declaredIn(name, params, body, j) {
			return Assignment{}, false
		}
	default:
		return Assignment{}, false
	}
	op := ""
	if j+1 < len(x.toks) {
		op = x.toks[j+1].text
	}
	if !field(name) || x.toks[j+1].kind != javaOp || op != "=" && op != "-=" && op != "+=" {
		return Assignment{}, false
	}
	vs := j + 2
	ve := x.exprEnd(vs)
	a := Assignment{Field: name, Text: x.describe(start, ve), Relative: op != "=" || x.readsField(name, vs, ve, params, body)}
	for k := body + 1; k < start && !a.Checked; k++ {
		if (x.is(k, "if") || x.is(k, "switch") || x.is(k, "while")) && x.is(k+1, "(") {
			a.Checked = x.readsField(name, k+2, x.match[k+1], params, body)
		}
	}
	if !a.Relative {
		a.Form, _ = x.valueForm(vs, ve, body)
	}
	return a, true
}

// readsField reports whether tokens [s, e) of the method whose parameter
// list opens at token params and whose body at token body read field name.
func (x *javaFile) readsField(name string, s, e, params, body int) bool {
	for k := s; k < e; k++ {
		if x.toks[k].text == name && x.isIdent(k) && !x.is(k+1, "(") &&
			(x.is(k-1, ".") && x.is(k-2, "this") || !x.is(k-1, ".") && !x.declaredIn(name, params, body, k)) {
			return true
		}
	}
	return false
}

// declaredIn reports whether name is a parameter of the list opening at
// token params, or a local declared in the body opening at token body
// before token j.
func (x *javaFile) declaredIn(name string, params, body, j int) bool {
	for k := params + 1; k < x.match[params]; k++ {
		if x.toks[k].text == name && x.isIdent(k) && (x.is(k+1, ",") || x.is(k+1, ")")) {
			return true
		}
	}
	return x.localDecl(name, body, j) >= 0
}

// annotationValue returns the token range of the value of an annotation
// whose arguments are tokens [s, e): the positional argument or value = ….
func (x *javaFile) annotationValue(s, e int) (int, int) {
	for _, el := range x.split(s, e, ",") {
		if x.isIdent(el.s) && x.is(el.s+1, "=") {
			if x.toks[el.s].text == "value" {
				return el.s + 2, el.e
			}
			continue
		}
		if el.s < el.e {
			return el.s, el.e
		}
	}
	return -1, -1
}

// annotatedMethod returns the name of the method declared after an
// annotation: the first name followed by '(' from token k, past other
// annotations and their arguments.
func (x *javaFile) annotatedMethod(k int) string {
	for ; k < len(x.toks); k++ {
		t := x.toks[k]
		switch {
		case t.kind == javaAnnot:
			if x.is(k+1, "(") {
				k = x.match[k+1]
			}
		case t.kind == javaOp && (t.text == ";" || t.text == "{" || t.text == "}"):
			return ""
		case t.kind == javaIdent && x.is(k+1, "("):
			return t.text
		}
	}
	return ""
}

// Param is a parameter of a method: its name, the last part of its type's
// name as written (without type arguments), and its annotations.
type Param struct {
	Name, Type  string
	Annotations []Annotation
}

// Params returns the parameters of method m, in order; nil for a field, or
// when the list cannot be read.
func (s Syntax) Params(m Member) []Param {
	if m.params < 0 {
		return nil
	}
	return s.ParamsAt(s.x.match[m.params])
}

// ParamsAt returns the parameters of the list that closes at token close,
// its `)`; nil when it cannot be read.
func (s Syntax) ParamsAt(close int) []Param {
	x := s.x
	if !x.is(close, ")") || x.match[close] < 0 {
		return nil
	}
	open := x.match[close]
	out := []Param{}
	from, depth := open+1, 0
	for k := from; k <= close; k++ {
		switch t := x.toks[k].text; {
		case x.is(k, "(") && x.toks[k-1].kind == javaAnnot:
			k = x.match[k]
		case t == "<" || t == ">" || t == ">>" || t == ">>>":
			depth += strings.Count(t, "<") - strings.Count(t, ">")
		case k == close && k > from || t == "," && depth == 0:
			p, ok := x.param(from, k)
			if !ok {
				return nil
			}
			out, from = append(out, p), k+1
		}
	}
	return out
}

// param reads the parameter declared by tokens [s, e).
func (x *javaFile) param(s, e int) (Param, bool) {
	var p Param
	for ; s < e && (x.toks[s].kind == javaAnnot || x.is(s, "final")); s++ {
		if x.toks[s].kind == javaAnnot {
			p.Annotations = append(p.Annotations, x.annotationAt(s))
			if x.is(s+1, "(") {
				s = x.match[s+1]
			}
		}
	}
	if e-s < 2 || !x.isIdent(e-1) {
		return p, false
	}
	p.Name = x.toks[e-1].text
	for k := s; k < e-1 && !x.is(k, "<"); k++ {
		if x.isIdent(k) {
			p.Type = x.toks[k].text
		}
	}
	return p, true
}
