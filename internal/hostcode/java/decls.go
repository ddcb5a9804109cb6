package java

import (
	"strings"
)

// The declarations of a Java file as a framework package reads them: the
// types it declares, what they extend, their annotations and fields. A
// framework that maps classes to tables (tk.mybatis's generic mappers, say)
// reads this view instead of the token stream.

// TypeDecl is a top-level class, interface, enum or record of a file.
type TypeDecl struct {
	// Name is the simple name; Qualified adds the file's package (and the
	// names of the types it is nested in).
	Name, Qualified string
	// Kind is "class", "interface", "enum" or "record".
	Kind string
	// Params are the names of its type parameters (T of Mapper<T>).
	Params      []string
	Annotations []Annotation
	// Extends are the types its extends clause names (an interface may
	// extend several), Implements those of its implements clause.
	Extends, Implements []TypeRef
	// Fields are the fields its body declares, in order.
	Fields []FieldDecl
	// Inner are the types declared inside it (nested, or local to one of
	// its methods), in order.
	Inner []TypeDecl
	Line  int
	body  int // the '{' of its body, -1 for none
}

// TypeRef is a type named in a declaration: Name qualified by the file's
// imports or its package (simple when a wildcard import may hold it), and
// the names of its type arguments, qualified alike.
type TypeRef struct {
	Name string
	Args []string
}

// Annotation is an annotation on a declaration: its name, qualified by the
// file's import when it has one, and its attributes as written (a string
// literal decoded, anything else as its source text; a bare first value is
// "value").
type Annotation struct {
	Name string
	Args map[string]string
	// Bare reports that the value attribute is written without its name:
	// @A("x") rather than @A(value = "x").
	Bare bool
	Line int
	at   int // its token
}

// Is reports whether a is the annotation simple (Table) of one of the
// packages pkgs, or written without a package the file names.
func (a Annotation) Is(simple string, pkgs ...string) bool {
	if a.Name == simple {
		return true
	}
	for _, p := range pkgs {
		if a.Name == p+"."+simple {
			return true
		}
	}
	return false
}

// FieldDecl is a field of a type: its name, its declared type as written
// (without type arguments or brackets), its modifiers that keep it out of
// an object's state, and its annotations.
type FieldDecl struct {
	Name, Type string
	// Static and Transient report the modifiers of those names.
	Static, Transient bool
	Annotations       []Annotation
	Line              int
}

// Declarations returns the top-level types a Java file declares; nil when
// the file cannot be read.
func Declarations(path string, src []byte) []TypeDecl {
	x := readJavaFile(path, src)
	if x == nil {
		return nil
	}
	return x.typeDecls()
}

// readJavaFile lexes and indexes src for a reader of its declarations; nil
// when the file cannot be read (its extraction says why).
func readJavaFile(path string, src []byte) *javaFile {
	toks, _, rerr := lexJava(src)
	if rerr != nil {
		return nil
	}
	x, xerr := newJavaFile(path, toks)
	if xerr != nil {
		return nil
	}
	return x
}

// javaTypeKeywords are the keywords that declare a type.
var javaTypeKeywords = map[string]bool{"class": true, "interface": true, "enum": true, "record": true}

// typeDecls returns the types the file declares, read once: callers must
// not change them.
func (x *javaFile) typeDecls() []TypeDecl {
	if x.types == nil {
		x.types = x.readTypeDecls()
		if x.types == nil {
			x.types = []TypeDecl{}
		}
	}
	return x.types
}

func (x *javaFile) readTypeDecls() []TypeDecl {
	pkg := x.packageName()
	type node struct {
		d         TypeDecl
		body, end int
		inner     []*node
	}
	var all, top []*node
	for i, t := range x.toks {
		if t.kind != javaIdent || !javaTypeKeywords[t.text] || !x.isIdent(i+1) || x.is(i-1, ".") {
			continue
		}
		d, body := x.typeDecl(pkg, i)
		d.body = body
		n := &node{d: d, body: body, end: -1}
		if body >= 0 {
			n.end = x.match[body]
			n.d.Fields = x.fieldDecls(body)
		}
		// The innermost type whose body holds it, else the file.
		var parent *node
		if x.encl[i] >= 0 {
			for j := len(all) - 1; j >= 0; j-- {
				if all[j].body >= 0 && all[j].body < i && i < all[j].end {
					parent = all[j]
					break
				}
			}
		}
		all = append(all, n)
		if parent != nil {
			n.d.Qualified = parent.d.Qualified + "." + n.d.Name
			parent.inner = append(parent.inner, n)
		} else if x.encl[i] < 0 {
			top = append(top, n)
		}
	}
	var build func([]*node) []TypeDecl
	build = func(ns []*node) []TypeDecl {
		var out []TypeDecl
		for _, n := range ns {
			d := n.d
			d.Inner = build(n.inner)
			out = append(out, d)
		}
		return out
	}
	return build(top)
}

// typeDecl reads the head of the type declared at keyword token i, and
// returns it with the '{' of its body (-1 when it has none).
func (x *javaFile) typeDecl(pkg string, i int) (TypeDecl, int) {
	t := x.toks[i]
	d := TypeDecl{Name: x.toks[i+1].text, Kind: t.text, Line: t.line, Annotations: x.annotationsBefore(i)}
	d.Qualified = qualify(pkg, d.Name)
	k := x.skipTypeArgs(i + 2)
	for j, depth := i+2, 0; j < k; j++ {
		switch {
		case x.is(j, "<"):
			depth++
		case x.is(j, ">"):
			depth--
		case depth == 1 && x.isIdent(j) && (x.is(j-1, "<") || x.is(j-1, ",")):
			d.Params = append(d.Params, x.toks[j].text)
		}
	}
	for k < len(x.toks) && !x.is(k, "{") && !x.is(k, ";") {
		switch {
		case x.is(k, "extends"):
			d.Extends, k = x.typeRefs(pkg, k+1)
		case x.is(k, "implements"):
			d.Implements, k = x.typeRefs(pkg, k+1)
		case x.is(k, "("): // a record's components
			k = x.match[k] + 1
		default:
			k++
		}
	}
	if x.is(k, "{") {
		return d, k
	}
	return d, -1
}

// skipTypeArgs returns the token after the <…> that starts at token k, or
// k when none does.
func (x *javaFile) skipTypeArgs(k int) int {
	if !x.is(k, "<") {
		return k
	}
	depth := 0
	for ; k < len(x.toks); k++ {
		switch {
		case x.is(k, "<"):
			depth++
		case x.is(k, ">"):
			depth--
			if depth == 0 {
				return k + 1
			}
		case x.is(k, "{") || x.is(k, ";"):
			return k
		}
	}
	return k
}

// typeRefs reads the comma-separated types starting at token k, up to the
// implements keyword, '{' or ';', and returns them with the token it
// stopped at.
func (x *javaFile) typeRefs(pkg string, k int) ([]TypeRef, int) {
	var out []TypeRef
	for k < len(x.toks) {
		name, next := x.dottedName(k)
		if name == "" {
			return out, k
		}
		ref := TypeRef{Name: x.qualifyType(pkg, name)}
		if x.is(next, "<") {
			end := x.skipTypeArgs(next)
			depth := 0
			for j := next; j < end; j++ {
				switch {
				case x.is(j, "<"):
					depth++
				case x.is(j, ">"):
					depth--
				case depth == 1 && x.isIdent(j) && !x.is(j-1, "."):
					arg, after := x.dottedName(j)
					ref.Args = append(ref.Args, x.qualifyType(pkg, arg))
					j = after - 1
				}
			}
			next = end
		}
		out = append(out, ref)
		if !x.is(next, ",") {
			return out, next
		}
		k = next + 1
	}
	return out, k
}

// dottedName reads a name that may be qualified (a.b.C) at token k and
// returns it with the token after it; "" when token k is no name.
func (x *javaFile) dottedName(k int) (string, int) {
	if !x.isIdent(k) {
		return "", k
	}
	var sb strings.Builder
	sb.WriteString(x.toks[k].text)
	for x.is(k+1, ".") && x.isIdent(k+2) {
		sb.WriteString("." + x.toks[k+2].text)
		k += 2
	}
	return sb.String(), k + 1
}

// annotationTokens returns the annotation tokens that stand before the
// declaration whose first word after them is token k, the nearest first,
// skipping modifiers.
func (x *javaFile) annotationTokens(k int) []int {
	var out []int
	for j := k - 1; j >= 0; j-- {
		t := x.toks[j]
		switch {
		case t.kind == javaIdent && javaModifiers[t.text]:
		case t.kind == javaAnnot:
			out = append(out, j)
		case x.is(j, ")") && x.match[j] >= 1 && x.toks[x.match[j]-1].kind == javaAnnot:
			j = x.match[j]
		default:
			return out
		}
	}
	return out
}

// annotationsBefore returns the annotations that stand before the
// declaration keyword or type at token i, in the order written.
func (x *javaFile) annotationsBefore(i int) []Annotation {
	ks := x.annotationTokens(i)
	if len(ks) == 0 {
		return nil
	}
	out := make([]Annotation, len(ks))
	for n, k := range ks {
		out[len(ks)-1-n] = x.annotationAt(k)
	}
	return out
}

// annotationAt reads the annotation at token a.
func (x *javaFile) annotationAt(a int) Annotation {
	t := x.toks[a]
	an := Annotation{Name: t.text, Line: t.line, at: a}
	if pkg, ok := x.imports[t.text]; ok && !strings.Contains(t.text, ".") {
		an.Name = pkg + "." + t.text
	}
	if !x.is(a+1, "(") {
		return an
	}
	an.Args = map[string]string{}
	for _, r := range x.split(a+2, x.match[a+1], ",") {
		s, e := r.s, r.e
		attr := "value"
		if e-s >= 3 && x.isIdent(s) && x.is(s+1, "=") {
			attr, s = x.toks[s].text, s+2
		} else {
			an.Bare = true
		}
		if s >= e {
			continue
		}
		if e-s == 1 && x.toks[s].kind == javaString {
			an.Args[attr] = x.toks[s].literal().String()
		} else {
			an.Args[attr] = x.source(s, e)
		}
	}
	return an
}

// fieldDecls reads the fields declared in the type body at '{' body:
// declarations ending in ';' or '=' directly in the body, methods, blocks
// and nested types left out.
func (x *javaFile) fieldDecls(body int) []FieldDecl {
	var out []FieldDecl
	start := body + 1
	for k := body + 1; k < x.match[body]; k++ {
		switch {
		case x.is(k, "{"):
			// A method body, an initialiser or a nested type ends the
			// declaration before it.
			k = x.match[k]
			start = k + 1
		case x.is(k, "("):
			// An annotation's arguments, or a method's head: no field
			// ends inside.
			k = x.match[k]
		case x.is(k, ";") || x.is(k, "="):
			if f, ok := x.fieldDecl(start, k); ok {
				out = append(out, f)
			}
			for k < x.match[body] && !x.is(k, ";") {
				if x.is(k, "(") || x.is(k, "{") || x.is(k, "[") {
					k = x.match[k]
				}
				k++
			}
			start = k + 1
		}
	}
	return out
}

// fieldDecl reads the declaration in tokens [s, e), e its ';' or '=':
// annotations and modifiers, a type, a name.
func (x *javaFile) fieldDecl(s, e int) (FieldDecl, bool) {
	if e-s < 2 || !x.isIdent(e-1) {
		return FieldDecl{}, false
	}
	f := FieldDecl{Name: x.toks[e-1].text, Line: x.toks[e-1].line}
	k := s
	for k < e-1 {
		t := x.toks[k]
		switch {
		case t.kind == javaAnnot:
			f.Annotations = append(f.Annotations, x.annotationAt(k))
			if x.is(k+1, "(") {
				k = x.match[k+1]
			}
		case t.kind == javaIdent && javaModifiers[t.text]:
			f.Static = f.Static || t.text == "static"
			f.Transient = f.Transient || t.text == "transient"
		default:
			name, next := x.dottedName(k)
			if name == "" || javaTypeKeywords[name] {
				return FieldDecl{}, false
			}
			f.Type = name
			next = x.skipTypeArgs(next)
			for x.is(next, "[") {
				next = x.match[next] + 1
			}
			return f, next == e-1
		}
		k++
	}
	return FieldDecl{}, false
}
