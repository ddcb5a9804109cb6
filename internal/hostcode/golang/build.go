package golang

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/stmt"
)

// goBuilder is a call that builds a string at run time.
type goBuilder struct {
	// kind names the builder in messages: "fmt.Sprintf", "strings.Join",
	// "strings.Builder", "bytes.Buffer", "WriteString".
	kind string
	// textArg is the argument whose leading text tells whether SQL is being
	// built (the format, the first element, the text written); nil if unknown.
	textArg ast.Expr
	// target is the variable written to (WriteString, fmt.Fprintf); nil for
	// builders that return the string.
	target *goObj
}

// builderOf recognises fmt.Sprint*, fmt.Fprint* into a strings.Builder or
// bytes.Buffer, strings.Join and WriteString.
func (x *goExtractor) builderOf(call *ast.CallExpr) (goBuilder, bool) {
	sel, ok := goUnparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return goBuilder{}, false
	}
	arg := func(i int) ast.Expr {
		if i < len(call.Args) {
			return call.Args[i]
		}
		return nil
	}
	name := sel.Sel.Name
	switch x.pkgOf(sel) {
	case "":
	case "fmt":
		switch name {
		case "Sprintf", "Sprint", "Sprintln":
			return goBuilder{kind: "fmt." + name, textArg: arg(0)}, true
		case "Fprintf", "Fprint", "Fprintln":
			if len(call.Args) > 0 {
				if obj, kind := x.builderTarget(call.Args[0]); kind != "" {
					return goBuilder{kind: "fmt." + name, textArg: arg(1), target: obj}, true
				}
			}
		}
		return goBuilder{}, false
	case "strings":
		if name == "Join" && len(call.Args) == 2 {
			b := goBuilder{kind: "strings.Join"}
			if lit, ok := goUnparen(call.Args[0]).(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
				b.textArg = lit.Elts[0]
			}
			return b, true
		}
		return goBuilder{}, false
	default:
		return goBuilder{}, false
	}
	if name == "WriteString" && len(call.Args) == 1 {
		obj, kind := x.builderTarget(sel.X)
		if kind == "" {
			kind = "WriteString"
		}
		return goBuilder{kind: kind, textArg: call.Args[0], target: obj}, true
	}
	return goBuilder{}, false
}

// builderTarget returns the variable e names (through &) and, when its
// declaration shows it, its builder type ("strings.Builder", "bytes.Buffer").
func (x *goExtractor) builderTarget(e ast.Expr) (*goObj, string) {
	e = goUnparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = goUnparen(u.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, ""
	}
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar {
		return nil, ""
	}
	switch d := obj.decl.(type) {
	case *ast.Field:
		return obj, x.builderTypeName(d.Type)
	case *ast.ValueSpec:
		if d.Type != nil {
			return obj, x.builderTypeName(d.Type)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && i < len(d.Values) && len(d.Values) == len(d.Names) {
				return obj, x.builderValueType(d.Values[i])
			}
		}
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			if n, ok := l.(*ast.Ident); ok && n.Name == id.Name && len(d.Rhs) == len(d.Lhs) {
				return obj, x.builderValueType(d.Rhs[i])
			}
		}
	}
	return obj, ""
}

// builderValueType is the builder type of an initial value: T{}, &T{}, new(T).
func (x *goExtractor) builderValueType(v ast.Expr) string {
	v = goUnparen(v)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = goUnparen(u.X)
	}
	switch v := v.(type) {
	case *ast.CompositeLit:
		return x.builderTypeName(v.Type)
	case *ast.CallExpr:
		if id, ok := goUnparen(v.Fun).(*ast.Ident); ok && id.Name == "new" && len(v.Args) == 1 && x.universal(id) {
			return x.builderTypeName(v.Args[0])
		}
	}
	return ""
}

func (x *goExtractor) builderTypeName(t ast.Expr) string {
	if s, ok := goUnparen(t).(*ast.StarExpr); ok {
		t = s.X
	}
	sel, ok := goUnparen(t).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch {
	case x.pkgOf(sel) == "strings" && sel.Sel.Name == "Builder":
		return "strings.Builder"
	case x.pkgOf(sel) == "bytes" && sel.Sel.Name == "Buffer":
		return "bytes.Buffer"
	}
	return ""
}

// reportLiterals walks the file in source order and reports the SQL literals
// and concatenations that are not constants' values, and the SQL built at run
// time.
func (x *goExtractor) reportLiterals() {
	ast.Inspect(x.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec, *ast.Field:
			return false // import paths and struct tags
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				x.literalRoot(n)
			}
		case *ast.BinaryExpr:
			if n.Op == token.ADD {
				x.concatRoot(n)
			}
		case *ast.CallExpr:
			x.builderCall(n)
		case *ast.AssignStmt:
			x.appendStmt(n)
		}
		return true
	})
}

// isRoot reports whether the string expression e is analysed on its own: not
// a piece of something larger, not a constant's value (reported with the
// constant), not the text of a message.
func (x *goExtractor) isRoot(e ast.Expr) bool {
	if x.isPiece(e) || x.inMessage(e) {
		return false
	}
	_, p := x.up(e)
	spec, ok := p.(*ast.ValueSpec)
	return !ok || !x.constSpecs[spec]
}

// reportAt is the construct a fragment for e is reported at: the call when e
// is a direct argument of one (a guard:ignore comment goes above the call),
// else e itself.
func (x *goExtractor) reportAt(e ast.Expr) ast.Node {
	child, p := x.up(e)
	if call, ok := p.(*ast.CallExpr); ok && ast.Node(call.Fun) != child {
		return call
	}
	return e
}

func (x *goExtractor) literalRoot(lit *ast.BasicLit) {
	if !x.isRoot(lit) {
		return
	}
	v, ok := x.constString(lit)
	if !ok || !goLooksLikeSQL(v.s) {
		return
	}
	fr := x.addStatic(v, x.reportAt(lit), x.position(lit.End()).Line, x.enclosingName(lit))
	x.byNode[lit] = x.candidate(fr, &goCandidate{root: lit})
}

// concatRoot handles a whole chain of +: constant SQL, SQL concatenated with
// a run-time value, or a variable holding SQL appended to.
func (x *goExtractor) concatRoot(b *ast.BinaryExpr) {
	if !x.isRoot(b) {
		return
	}
	ops := goFlattenConcat(b)
	var buf goStringBuf
	for i, op := range ops {
		v, ok := x.constString(op)
		if !ok {
			switch {
			case i > 0 && goLooksLikeSQL(string(buf.b)):
				fr := x.addUnchecked(b, "SQL concatenated with non-constant expression `"+x.exprText(op)+"`")
				x.candidate(fr, &goCandidate{root: b, holed: x.holedText(ops)})
			case i == 0 && len(x.frags) > 0: // a variable holding SQL holds a fragment
				if id, ok := op.(*ast.Ident); ok {
					if obj := x.objOf(id); obj != nil && obj.kind == goVar {
						if bases := x.resolve(id, false); len(bases) > 0 {
							x.appendFragment(obj, b, id.Name, bases)
						}
					}
				}
			}
			return
		}
		if !buf.add(v) {
			return
		}
	}
	if acc := buf.value(); goLooksLikeSQL(acc.s) {
		fr := x.addStatic(acc, x.reportAt(b), x.position(b.End()).Line, x.enclosingName(b))
		x.byNode[b] = x.candidate(fr, &goCandidate{root: b})
	}
}

// builderCall reports a builder whose text starts like SQL, once per builder
// variable; the builder's later writes complete the text it is decided on.
func (x *goExtractor) builderCall(call *ast.CallExpr) {
	b, ok := x.builderOf(call)
	if !ok || b.textArg == nil || x.inMessage(call) {
		return
	}
	text := x.builderText(call, b)
	if b.target != nil {
		if fr := x.byBuilder[b.target]; fr != nil {
			if c := x.cands[fr]; c != nil && len(c.holed) < goMaxConstLen {
				c.holed += " " + text
			}
			x.byNode[call] = fr
			return
		}
	}
	if !goLooksLikeSQL(x.constPrefix(b.textArg)) {
		return
	}
	reason := "SQL built at run time with " + b.kind
	if b.kind == "fmt.Sprintf" {
		sql, why, ok := x.sprintfFixed(call)
		if ok && goLooksLikeSQL(sql) {
			// Every piece is fixed by the file: a constant statement, reported
			// at the call since its text stands in several places.
			at := x.reportAt(call)
			p := x.position(at.Pos())
			fr := &stmt.Fragment{File: x.path, Lang: stmt.LangGo, SQL: sql, Line: p.Line, Col: p.Column,
				EndLine: max(x.position(call.End()).Line, p.Line), ID: x.enclosingName(call)}
			x.frags = append(x.frags, fr)
			x.byNode[call] = x.candidate(fr, &goCandidate{root: call})
			return
		}
		if why != "" {
			reason += ": " + why
		}
	}
	fr := x.addUnchecked(call, reason)
	x.candidate(fr, &goCandidate{root: call, holed: text})
	if b.target != nil {
		x.byBuilder[b.target] = fr
	}
}

// appendStmt reports q += … on a variable that holds SQL.
func (x *goExtractor) appendStmt(as *ast.AssignStmt) {
	if as.Tok != token.ADD_ASSIGN || len(as.Lhs) != 1 || len(x.frags) == 0 {
		return // a variable holding SQL holds a fragment
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	obj := x.objOf(id)
	if obj == nil || obj.kind != goVar || x.foldAppends(obj) {
		return
	}
	if bases := x.resolve(id, false); len(bases) > 0 {
		x.appendFragment(obj, as, id.Name, bases)
	}
}

// appendFragment reports, once per variable, SQL built by appending to it.
// bases are the SQL fragments the variable holds before; nil when a database
// call runs the result.
func (x *goExtractor) appendFragment(obj *goObj, at ast.Node, name string, bases []*stmt.Fragment) *stmt.Fragment {
	if fr := x.byAppend[obj]; fr != nil {
		x.byNode[at] = fr
		return fr
	}
	fr := x.addUnchecked(at, "SQL built at run time by appending to `"+name+"`")
	x.byAppend[obj] = fr
	if bases != nil {
		x.candidate(fr, &goCandidate{bases: bases})
	}
	return fr
}

// foldAppends folds SQL that a variable is given in pieces, every one a
// constant, in straight-line code: `sql = "CREATE TABLE t ("` followed by
// `sql += "…"` statements of the same block, with no other use of the
// variable in between. The fragment of the first piece becomes the whole
// statement; the appends are not reported as SQL built at run time. It
// reports whether the variable's appends were folded.
func (x *goExtractor) foldAppends(obj *goObj) bool {
	if done, seen := x.folded[obj]; seen {
		return done
	}
	x.folded[obj] = false
	as := x.assigns[obj]
	if len(as) < 2 || as[0].tok == token.ADD_ASSIGN {
		return false
	}
	base, ok := goUnparen(as[0].value()).(*ast.BasicLit)
	fr := x.byNode[base]
	if !ok || fr == nil || fr.Unchecked != "" {
		return false
	}
	block := x.stmtBlock(as[0].node)
	var buf goStringBuf
	for i, a := range as {
		v := a.value()
		if i > 0 {
			if a.tok != token.ADD_ASSIGN || a.nlhs != 1 || len(a.rhs) != 1 {
				return false
			}
			v = a.rhs[0]
		}
		s, ok := x.constString(v)
		if !ok || block == nil || x.stmtBlock(a.node) != block || i > 0 && a.node.Pos() < as[i-1].node.End() || !buf.add(s) {
			return false
		}
	}
	first, last := as[0].node, as[len(as)-1].node
	for _, u := range x.uses[obj] {
		if u.Pos() <= first.End() || u.Pos() >= last.Pos() {
			continue
		}
		if s, ok := x.parent[u].(*ast.AssignStmt); !ok || s.Tok != token.ADD_ASSIGN || s.Lhs[0] != u {
			return false // read between the pieces
		}
	}
	v := buf.value()
	fr.SQL, fr.Segments = v.s, v.segs
	fr.EndLine = max(fr.EndLine, x.position(last.End()).Line)
	x.folded[obj] = true
	return true
}

// stmtBlock returns the block whose statement n (an assignment, or the spec
// of a var declaration) is; nil when n is not directly in a block.
func (x *goExtractor) stmtBlock(n ast.Node) *ast.BlockStmt {
	if spec, ok := n.(*ast.ValueSpec); ok {
		decl, _ := x.parent[spec].(*ast.GenDecl)
		if decl == nil {
			return nil
		}
		n = x.parent[decl]
	}
	b, _ := x.parent[n].(*ast.BlockStmt)
	return b
}
