package java

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
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
	// importNames are the names of its imports as written, static left out.
	importNames []string
	// wildcard is set when the file imports a package with .*: a type it
	// does not import by name may then come from there.
	wildcard bool
	claimed  []bool // tokens already inside a reported fragment
	frags    []*stmt.Fragment
	pending  map[*stmt.Fragment]*javaPending
	// builderRun holds the builders (name and method body) whose toString()
	// a database call runs.
	builderRun map[string]bool
	parser     *sqlparse.Parser // made when a fragment must be parsed to be decided
	// entities are the MyBatis-Plus entity classes of the run; nil when
	// the file is read on its own.
	entities *EntityIndex
	// readHelpers caches plusReadHelper: the select a method of the file
	// returns the result of, "" for none.
	readHelpers map[string]string
	// types caches typeDecls, which every framework reads.
	types []TypeDecl
	// usedEntities records that the file asked entities about a class.
	usedEntities bool
}

// newJavaFile indexes toks: bracket pairs, blocks, declarations, imports.
func newJavaFile(path string, toks []javaToken) (*javaFile, *javaReadError) {
	x := &javaFile{
		path: path, toks: toks,
		match: make([]int, len(toks)), encl: make([]int, len(toks)), opener: make([]int, len(toks)),
		blocks: map[int]*javaBlock{}, decls: map[string][]*javaDecl{}, assigns: map[string][]int{},
		defs: map[int]*javaDef{}, imports: map[string]string{}, claimed: make([]bool, len(toks)),
		pending: map[*stmt.Fragment]*javaPending{}, builderRun: map[string]bool{},
	}
	if err := x.matchBrackets(); err != nil {
		return nil, err
	}
	var braces, brackets []int
	top := func(s []int) int {
		if len(s) == 0 {
			return -1
		}
		return s[len(s)-1]
	}
	for i, t := range toks {
		x.encl[i], x.opener[i] = top(braces), top(brackets)
		if t.kind != javaOp {
			continue
		}
		switch t.text {
		case "(", "[":
			brackets = append(brackets, i)
		case "{":
			b := x.classify(i)
			b.parent = top(braces)
			x.blocks[i] = b
			brackets = append(brackets, i)
			braces = append(braces, i)
		case ")", "]":
			brackets = brackets[:max(len(brackets)-1, 0)]
		case "}":
			brackets = brackets[:max(len(brackets)-1, 0)]
			braces = braces[:max(len(braces)-1, 0)]
		}
	}
	x.index()
	x.resolveAssigns()
	return x, nil
}

// is reports whether token i exists and is the operator or word text.
func (x *javaFile) is(i int, text string) bool {
	return i >= 0 && i < len(x.toks) && x.toks[i].text == text && (x.toks[i].kind == javaOp || x.toks[i].kind == javaIdent)
}

// isIdent reports whether token i exists and is a name or keyword.
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
	k := x.headEnd(i)
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
	if b := x.methodBlock(i); b >= 0 {
		return x.blocks[b].name
	}
	return ""
}

// methodBlock returns the '{' of the method body holding token i, or -1.
func (x *javaFile) methodBlock(i int) int {
	if i < 0 || i >= len(x.toks) {
		return -1
	}
	for b := x.encl[i]; b >= 0; b = x.blocks[b].parent {
		if x.blocks[b].kind == javaBlockMethod {
			return b
		}
	}
	return -1
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

// headEnd returns the token before the '{' at token open, past a throws
// clause: the ')' of a method's parameters when open starts its body.
func (x *javaFile) headEnd(open int) int {
	k := open - 1
	for j := k; j >= 0 && (x.isIdent(j) || x.is(j, ".") || x.is(j, ",")); j-- {
		if x.is(j, "throws") {
			return j - 1
		}
	}
	return k
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
