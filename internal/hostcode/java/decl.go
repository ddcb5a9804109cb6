package java

import (
	"sort"
	"strings"
)

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
	// usedWholeSure is set when that call is surely a database call.
	usedWholeSure bool
	reported      bool
	eval          *javaEval
	evaluating    bool
	// sqlStart and extension cache defStartsSQL and extends: 0 not yet
	// known, 1 yes, 2 no.
	sqlStart, extension int8
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

// indexImport records the import statement at token i: explicit imports by
// simple name, and every name as written.
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
	x.importNames = append(x.importNames, name)
	if dot := strings.LastIndexByte(name, '.'); dot > 0 && name[dot+1:] != "*" {
		x.imports[name[dot+1:]] = name[:dot]
	} else if dot > 0 && !x.is(i+1, "static") {
		x.wildcard = true
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

// addDecl records d under its name and in file order.
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
	if df.extension == 0 {
		df.extension = 2
		if df.appends {
			df.extension = 1
		}
		for _, r := range x.evalDef(df, 0).refs {
			if df != df.decl.init && r == df.decl {
				df.extension = 1
			}
		}
	}
	return df.extension == 1
}

// defStartsSQL reports whether the value df gives starts like SQL.
func (x *javaFile) defStartsSQL(df *javaDef) bool {
	if df.sqlStart == 0 {
		df.sqlStart = 2
		if x.evalDef(df, 0).prefixText().LooksLikeSQL() {
			df.sqlStart = 1
		}
	}
	return df.sqlStart == 1
}
