package source

import (
	"fmt"
	"sort"
	"strings"
)

// javaBlockKind says what a { … } block is.
type javaBlockKind uint8

const (
	javaBlockOther     javaBlockKind = iota // statements, initialisers, lambdas
	javaBlockType                           // class, enum, record or anonymous class body
	javaBlockInterface                      // interface body: its fields are constants
	javaBlockMethod                         // method or constructor body
)

// javaBlock describes the block opened by one '{' token.
type javaBlock struct {
	kind   javaBlockKind
	name   string // the method's name for a method body
	parent int    // the enclosing '{', or -1
}

// javaDecl is a declaration of a String (or var) variable, field, constant or
// parameter.
type javaDecl struct {
	name      string
	start     int // first token: modifiers, or the type
	nameIdx   int
	init      *javaDef // nil for parameters and declarations without a value
	block     int      // the '{' of the scope holding it, -1 at the top level
	scopeFrom int      // first token where the name refers to it
	scopeEnd  int      // last token where it may be in scope
	member    bool     // a field of a class or interface, seen in all its body
	constant  bool     // static final, or a field of an interface
	// assigns are the name tokens of the assignments to it.
	assigns []int
	// usedOther is set when its value is read as a piece of a larger string,
	// or by an annotation: a constant used only so is not a statement itself.
	usedOther bool
}

// javaDef is one place that gives a variable its value: its initialiser or an
// assignment.
type javaDef struct {
	decl             *javaDecl
	start            int // first token of the declaration or assignment
	valStart, valEnd int // the value expression, valEnd exclusive
	appends          bool
	// usedWholeExec is set when a JDBC call runs exactly this value; the SQL
	// is then reported here, where its text stands, once.
	usedWholeExec bool
	reported      bool
	eval          *javaEval
	evaluating    bool
}

// javaFile is a lexed Java file with the structure the extractor needs.
type javaFile struct {
	path    string
	toks    []javaToken
	match   []int // the matching bracket of each bracket token, else -1
	encl    []int // innermost enclosing '{' of each token, -1 at the top level
	opener  []int // innermost enclosing bracket of any kind, -1 at the top level
	blocks  map[int]*javaBlock
	decls   map[string][]*javaDecl
	order   []*javaDecl       // declarations in file order
	assigns map[string][]int  // name tokens of "name =" and "name +=" statements
	defs    map[int]*javaDef  // assignment defs by name token
	imports map[string]string // simple name -> package of explicit imports
	ibatis  bool              // the file imports from org.apache.ibatis
	claimed []bool            // tokens already inside a reported fragment
	frags   []*Fragment
	seen    map[string]bool
}

// newJavaFile indexes toks: bracket pairs, blocks, declarations, imports.
func newJavaFile(path string, toks []javaToken) (*javaFile, *javaReadError) {
	x := &javaFile{
		path: path, toks: toks,
		match: make([]int, len(toks)), encl: make([]int, len(toks)), opener: make([]int, len(toks)),
		blocks: map[int]*javaBlock{}, decls: map[string][]*javaDecl{}, assigns: map[string][]int{},
		defs: map[int]*javaDef{}, imports: map[string]string{}, claimed: make([]bool, len(toks)),
		seen: map[string]bool{},
	}
	if err := x.matchBrackets(); err != nil {
		return nil, err
	}
	var braces, any []int
	top := func(s []int) int {
		if len(s) == 0 {
			return -1
		}
		return s[len(s)-1]
	}
	for i, t := range toks {
		x.encl[i], x.opener[i] = top(braces), top(any)
		if t.kind != javaOp {
			continue
		}
		switch t.text {
		case "(", "[":
			any = append(any, i)
		case "{":
			b := x.classify(i)
			b.parent = top(braces)
			x.blocks[i] = b
			any = append(any, i)
			braces = append(braces, i)
		case ")", "]":
			any = any[:max(len(any)-1, 0)]
		case "}":
			any = any[:max(len(any)-1, 0)]
			braces = braces[:max(len(braces)-1, 0)]
		}
	}
	x.index()
	x.resolveAssigns()
	return x, nil
}

// resolveAssigns gives each assignment to the declaration it assigns: the
// one its name refers to there. A declarator "String name = …" is not an
// assignment.
func (x *javaFile) resolveAssigns() {
	declarator := map[int]bool{}
	for _, d := range x.order {
		declarator[d.nameIdx] = true
	}
	for name, list := range x.assigns {
		for _, a := range list {
			if declarator[a] {
				continue
			}
			if d := x.lookup(name, a, x.is(a-1, ".")); d != nil {
				d.assigns = append(d.assigns, a)
			}
		}
	}
	for _, d := range x.order {
		sort.Ints(d.assigns)
	}
}

// extends reports whether df builds on the earlier value of its variable:
// sql += …, or sql = sql + ….
func (x *javaFile) extends(df *javaDef) bool {
	if df.appends {
		return true
	}
	if df == df.decl.init {
		return false
	}
	for _, r := range x.evalDef(df, 0).refs {
		if r == df.decl {
			return true
		}
	}
	return false
}

func (x *javaFile) is(i int, text string) bool {
	return i >= 0 && i < len(x.toks) && x.toks[i].text == text && (x.toks[i].kind == javaOp || x.toks[i].kind == javaIdent)
}

func (x *javaFile) isIdent(i int) bool {
	return i >= 0 && i < len(x.toks) && x.toks[i].kind == javaIdent
}

// matchBrackets pairs (), [] and {}; a file whose brackets do not pair
// cannot be read.
func (x *javaFile) matchBrackets() *javaReadError {
	pair := map[string]string{")": "(", "]": "[", "}": "{"}
	var stack []int
	for i, t := range x.toks {
		x.match[i] = -1
		if t.kind != javaOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			if len(stack) == 0 {
				return &javaReadError{msg: fmt.Sprintf("unbalanced %q", t.text), line: t.line, col: t.col}
			}
			o := stack[len(stack)-1]
			if x.toks[o].text != pair[t.text] {
				// When an opener of the closer's kind waits deeper, the one on
				// top was never closed; otherwise the closer is a stray.
				for _, d := range stack {
					if x.toks[d].text == pair[t.text] {
						ot := x.toks[o]
						return &javaReadError{msg: fmt.Sprintf("unbalanced %q: %q at %d:%d closes it", ot.text, t.text, t.line, t.col), line: ot.line, col: ot.col}
					}
				}
				return &javaReadError{msg: fmt.Sprintf("unbalanced %q", t.text), line: t.line, col: t.col}
			}
			x.match[o], x.match[i] = i, o
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		ot := x.toks[stack[len(stack)-1]]
		return &javaReadError{msg: fmt.Sprintf("unbalanced %q: never closed", ot.text), line: ot.line, col: ot.col}
	}
	return nil
}

// javaControl lists the keywords that take a parenthesised header before a block.
var javaControl = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"synchronized": true, "try": true, "return": true, "throw": true,
}

// classify tells what the block opened at '{' token i is, from the tokens
// that stand before it.
func (x *javaFile) classify(i int) *javaBlock {
	// A type declaration: class/interface/enum/record in the header.
	for k := i - 1; k >= 0; k-- {
		t := x.toks[k]
		if t.kind == javaOp {
			if t.text == ")" || t.text == "]" {
				k = x.match[k]
				continue
			}
			if t.text == ";" || t.text == "{" || t.text == "}" || t.text == "=" || t.text == "->" || t.text == "(" {
				break
			}
			continue
		}
		if t.kind == javaAnnot && t.text == "interface" {
			return &javaBlock{kind: javaBlockInterface}
		}
		if t.kind == javaIdent && !x.is(k-1, ".") {
			switch t.text {
			case "interface":
				return &javaBlock{kind: javaBlockInterface}
			case "class", "enum":
				return &javaBlock{kind: javaBlockType}
			case "record":
				if x.isIdent(k + 1) {
					return &javaBlock{kind: javaBlockType}
				}
			}
		}
	}
	// A method or constructor: name ( … ) [throws A, B] {
	k := i - 1
	for j := k; j >= 0 && (x.isIdent(j) || x.is(j, ".") || x.is(j, ",")); j-- {
		if x.is(j, "throws") {
			k = j - 1
			break
		}
	}
	if !x.is(k, ")") {
		return &javaBlock{kind: javaBlockOther}
	}
	m := x.match[k]
	if !x.isIdent(m-1) || javaControl[x.toks[m-1].text] {
		return &javaBlock{kind: javaBlockOther}
	}
	if x.is(m-2, "new") {
		return &javaBlock{kind: javaBlockType} // anonymous class
	}
	if x.is(m-2, ".") {
		return &javaBlock{kind: javaBlockOther}
	}
	return &javaBlock{kind: javaBlockMethod, name: x.toks[m-1].text}
}

// methodAt returns the name of the method whose body holds token i.
func (x *javaFile) methodAt(i int) string {
	if i < 0 || i >= len(x.toks) {
		return ""
	}
	for b := x.encl[i]; b >= 0; b = x.blocks[b].parent {
		if x.blocks[b].kind == javaBlockMethod {
			return x.blocks[b].name
		}
	}
	return ""
}

func (x *javaFile) scopeEnd(block int) int {
	if block < 0 {
		return len(x.toks)
	}
	return x.match[block]
}

// exprEnd returns the end (exclusive) of the expression starting at s: the
// first ',' or ';' or closing bracket at its own depth.
func (x *javaFile) exprEnd(s int) int {
	k := s
	for k < len(x.toks) {
		t := x.toks[k]
		if t.kind == javaOp {
			switch t.text {
			case "(", "[", "{":
				k = x.match[k] + 1
				continue
			case ")", "]", "}", ",", ";":
				return k
			}
		}
		k++
	}
	return k
}

// javaModifiers are the words that may stand before a field's type.
var javaModifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true,
	"transient": true, "volatile": true, "abstract": true, "default": true,
}

// index finds imports, String declarations and assignments.
func (x *javaFile) index() {
	for i := 0; i < len(x.toks); i++ {
		t := x.toks[i]
		if t.kind != javaIdent {
			continue
		}
		switch {
		case t.text == "import" && x.encl[i] < 0:
			x.indexImport(i)
		case t.text == "String" || t.text == "var":
			x.indexDecl(i)
		case (x.is(i+1, "=") || x.is(i+1, "+=")) && (!x.is(i-1, ".") || x.is(i-2, "this") && !x.is(i-3, ".")):
			x.assigns[t.text] = append(x.assigns[t.text], i)
		}
	}
}

func (x *javaFile) indexImport(i int) {
	var parts []string
	k := i + 1
	if x.is(k, "static") {
		k++
	}
	for ; k < len(x.toks) && !x.is(k, ";"); k++ {
		parts = append(parts, x.toks[k].text)
	}
	name := strings.Join(parts, "")
	if strings.HasPrefix(name, "org.apache.ibatis.") {
		x.ibatis = true
	}
	if dot := strings.LastIndexByte(name, '.'); dot > 0 && name[dot+1:] != "*" {
		x.imports[name[dot+1:]] = name[:dot]
	}
}

// indexDecl records the declarations of "String name …" at type token i.
func (x *javaFile) indexDecl(i int) {
	if !x.isIdent(i+1) || x.is(i+2, "(") {
		return
	}
	// Modifiers, annotations and the java.lang qualifier before the type.
	start := i
	static, final := false, false
	for k := i - 1; k >= 0; k-- {
		t := x.toks[k]
		switch {
		case t.kind == javaIdent && javaModifiers[t.text]:
			static = static || t.text == "static"
			final = final || t.text == "final"
		case t.kind == javaAnnot:
		case x.is(k, ")") && x.match[k] >= 1 && x.toks[x.match[k]-1].kind == javaAnnot:
			k = x.match[k]
		case x.is(k, ".") || t.kind == javaIdent && (t.text == "java" || t.text == "lang") && k+1 < i:
		default:
			k = -1
			continue
		}
		start = k
	}
	block := x.encl[i]
	kind := javaBlockOther
	if block >= 0 {
		kind = x.blocks[block].kind
	}
	member := kind == javaBlockType || kind == javaBlockInterface
	for k := i + 1; x.isIdent(k); {
		d := &javaDecl{
			name: x.toks[k].text, start: start, nameIdx: k, block: block,
			scopeFrom: k, scopeEnd: x.scopeEnd(block), member: member,
			constant: kind == javaBlockInterface || kind == javaBlockType && static && final,
		}
		if member {
			d.scopeFrom = block
		}
		next := k + 1
		switch {
		case x.is(k+1, "="):
			end := x.exprEnd(k + 2)
			d.init = &javaDef{decl: d, start: start, valStart: k + 2, valEnd: end}
			next = end
		case x.is(k+1, ",") || x.is(k+1, ")"):
			if p := x.opener[k]; p >= 0 && x.is(p, "(") {
				// A parameter: in scope in the body after the parameter list.
				body := x.match[p] + 1
				for x.isIdent(body) || x.is(body, ".") || x.is(body, ",") || x.is(body, "->") {
					body++
				}
				if !x.is(body, "{") {
					return
				}
				d.block, d.scopeFrom, d.scopeEnd, d.member, d.constant = body, body, x.match[body], false, false
				x.addDecl(d)
				return
			}
		case x.is(k+1, ";"):
		default:
			return
		}
		x.addDecl(d)
		if !x.is(next, ",") {
			return
		}
		k = next + 1
	}
}

func (x *javaFile) addDecl(d *javaDecl) {
	x.decls[d.name] = append(x.decls[d.name], d)
	x.order = append(x.order, d)
}

// lookup returns the declaration that name refers to at token u: the one in
// the innermost scope. member restricts it to fields (this.x, Type.X).
func (x *javaFile) lookup(name string, u int, member bool) *javaDecl {
	var best *javaDecl
	for _, d := range x.decls[name] {
		if u < d.scopeFrom || u > d.scopeEnd || member && !d.member {
			continue
		}
		if best == nil || d.block > best.block || d.block == best.block && d.nameIdx > best.nameIdx {
			best = d
		}
	}
	return best
}

// defsAt returns what may give d its value when it is read at token u: its
// initialiser and the assignments to it in scope (before u for a local).
func (x *javaFile) defsAt(d *javaDecl, u int) []*javaDef {
	var defs []*javaDef
	if d.init != nil {
		defs = append(defs, d.init)
	}
	for _, a := range d.assigns {
		if !d.member && (a < d.nameIdx || a > u) {
			continue
		}
		defs = append(defs, x.assignDef(d, a))
	}
	return defs
}

// assignDef returns the def of the assignment whose name token is a.
func (x *javaFile) assignDef(d *javaDecl, a int) *javaDef {
	if df, ok := x.defs[a]; ok {
		return df
	}
	start := a
	if x.is(a-1, ".") {
		start = a - 2
	}
	df := &javaDef{decl: d, start: start, valStart: a + 2, valEnd: x.exprEnd(a + 2), appends: x.is(a+1, "+=")}
	x.defs[a] = df
	return df
}
