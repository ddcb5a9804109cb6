package golang

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/golang/goflow"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// ExtractGo finds the SQL in one Go file.
//
// A string literal, or a constant expression (a + of literals and of
// constants declared in the file), that looks like SQL is one Fragment: a
// constant is reported once at its declaration, a literal where it stands
// (Line is that of the call when the literal is a direct argument of one, so
// that a guard:ignore comment above the call applies).
// SQL built at run time (fmt.Sprintf, strings.Join, strings.Builder, a + with
// a non-constant operand, appending to a variable holding SQL) is a Fragment
// with Unchecked set; so is any such value that reaches a database call even
// when it does not look like SQL. When the SQL is the query of an Exec-like
// call, Fragment.Exec tells what the enclosing function does with the result.
//
// Starting like SQL is not enough: a string is SQL when it reaches a database
// call, and never when it is the text of an error, a log line or a test name
// ("update stock failed"). A string whose use the file does not show is SQL
// when it parses as a statement, or, built at run time, when its constant
// parts have a statement's skeleton (see sqlparse.LooksLikeStatement).
//
// A file that does not parse yields an Unchecked fragment where it breaks,
// and the SQL of what go/parser recovers around the error. ExtractGo never
// panics and never reads the file system: src is the file's content.
func ExtractGo(path string, src []byte) *hostcode.File {
	return extractGo(path, src, nil, nil)
}

// ExtractGoWith is ExtractGo with the model types of the whole run, so that
// a GORM write finds the table of a type another file declares (see
// GoModels); with nil it knows the file's own types only.
func ExtractGoWith(path string, src []byte, models *GoModels) *hostcode.File {
	return extractGo(path, src, nil, models)
}

func extractGo(path string, src []byte, others map[string][]byte, models *GoModels) *hostcode.File {
	out := &hostcode.File{Path: path, Lang: stmt.LangGo}
	if src == nil {
		src = []byte{} // a nil source would make go/parser read path
	}
	fset := token.NewFileSet()
	// On a syntax error go/parser still returns what it recovered (up to
	// ten errors; past them it gives up and returns an empty file).
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		out.Fragments = []*stmt.Fragment{goBrokenFile(path, err)}
		return out
	}
	x := newGoExtractor(path, src, fset, f, nil)
	x.models = models
	if models == nil {
		x.models = &GoModels{}
		x.models.Add(goFileModels(x.dir, f))
	}
	if len(others) > 0 && f.Name != nil {
		x.readPackage(others)
	}
	if err != nil {
		x.frags = append(x.frags, goBrokenFile(path, err))
	}
	x.extract()
	if header := goGeneratedHeader(f); header != "" {
		for _, fr := range x.frags {
			fr.Generated = header
		}
	}
	out.Fragments = x.frags
	out.Suppressions = x.suppressions()
	out.MapperCalls = append(x.goctlCalls(), x.calls...)
	if len(out.Fragments) > 0 || len(out.MapperCalls) > 0 || goflow.MayNegate(src) {
		goflow.Contexts(fset, f, out, src)
	}
	out.NeedsPackage = x.needsPackage
	out.UsesModels = x.usedModels
	out.GoctlFields = x.goctlFields()
	return out
}

// goGeneratedHeader returns the comment by which f says it is generated, or
// "". It is the comment ast.IsGenerated looks for (a line before the package
// clause reading `// Code generated … DO NOT EDIT.`), also with the "!" some
// generators end it with (goctl: `DO NOT EDIT!`).
func goGeneratedHeader(f *ast.File) string {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "// Code generated ") &&
				(strings.HasSuffix(c.Text, " DO NOT EDIT.") || strings.HasSuffix(c.Text, " DO NOT EDIT!")) {
				return c.Text
			}
		}
	}
	return ""
}

// goBrokenFile is the fragment standing for a file that does not parse.
func goBrokenFile(path string, err error) *stmt.Fragment {
	fr := &stmt.Fragment{File: path, Lang: stmt.LangGo, Line: 1, Col: 1, EndLine: 1}
	msg := err.Error()
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		msg = list[0].Msg
		if p := list[0].Pos; p.Line > 0 {
			fr.Line, fr.EndLine = p.Line, p.Line
			fr.Col = max(p.Column, 1)
		}
	}
	fr.Unchecked = "go: cannot parse file: " + msg
	return fr
}

// goExtractor holds what one file's analysis needs. Identifiers are resolved
// by go/types (see goTypes): the file's own syntax is indexed at once, what
// its names refer to on the first question about one.
type goExtractor struct {
	path  string
	src   []byte
	fset  *token.FileSet
	tf    *token.File
	file  *ast.File
	types *goTypes // the type check of the file, with the others of its package read with it

	parent    map[ast.Node]ast.Node
	imports   map[string]string // local name -> import path
	declared  map[string]bool   // the names the file declares, in any scope
	typeNamed map[string]bool   // the names of its types and type parameters
	// methodValues are the names assigned a method value of a database
	// call (exec := tx.ExecContext), callResults those assigned a call's
	// result (stmt, err := db.Prepare(q)): only they can name one.
	methodValues map[string]bool
	callResults  map[string]bool
	constSpecs   map[*ast.ValueSpec]bool
	constNames   []*ast.Ident
	constExprs   []ast.Expr          // the value of each of constNames
	constNamed   map[string]bool     // the names of constNames
	constValue   map[*goObj]ast.Expr // by object, once resolved
	constMemo    map[*goObj]*goConstMemo
	assigns      map[*goObj][]goAssign
	// folded records, per variable appended to, whether its pieces were
	// folded into one constant statement (see foldAppends).
	folded map[*goObj]bool
	uses   map[*goObj][]*ast.Ident

	frags     []*stmt.Fragment
	byNode    map[ast.Node]*stmt.Fragment
	byConst   map[*goObj]*stmt.Fragment
	byBuilder map[*goObj]*stmt.Fragment
	byAppend  map[*goObj]*stmt.Fragment

	cands map[*stmt.Fragment]*goCandidate
	sunk  map[*stmt.Fragment]bool // fragments a database call runs
	bound map[*stmt.Fragment]bool // fragments whose ParamSteps a call has set

	fieldMemo map[goFieldKey]goFieldMemo // receiver fields computed for fmt.Sprintf
	// usedModels records that the extraction asked the model types about
	// a type (runModels).
	usedModels bool
	// needsPackage records that a goctl-shaped piece named what another
	// file of the package may declare while none was given.
	needsPackage bool
	parser       *sqlparse.Parser // made when a fragment must be parsed to be decided

	dir    string            // the file's folder, slash-separated, for GoModels.Lookup
	models *GoModels         // the model types of the run (or of the file)
	calls  []stmt.MapperCall // the file's GORM entity writes
}

// newGoExtractor prepares the analysis of f; tp is the type check of the
// package f is read with, nil for f alone.
func newGoExtractor(path string, src []byte, fset *token.FileSet, f *ast.File, tp *goTypes) *goExtractor {
	x := &goExtractor{
		path: path, src: src, fset: fset, tf: fset.File(f.Pos()), file: f, types: tp,
		parent:       map[ast.Node]ast.Node{},
		imports:      map[string]string{},
		declared:     map[string]bool{},
		typeNamed:    map[string]bool{},
		methodValues: map[string]bool{},
		callResults:  map[string]bool{},
		constSpecs:   map[*ast.ValueSpec]bool{},
		constNamed:   map[string]bool{},
		constValue:   map[*goObj]ast.Expr{},
		constMemo:    map[*goObj]*goConstMemo{},
		assigns:      map[*goObj][]goAssign{},
		folded:       map[*goObj]bool{},
		uses:         map[*goObj][]*ast.Ident{},
		byNode:       map[ast.Node]*stmt.Fragment{},
		byConst:      map[*goObj]*stmt.Fragment{},
		byBuilder:    map[*goObj]*stmt.Fragment{},
		byAppend:     map[*goObj]*stmt.Fragment{},
		cands:        map[*stmt.Fragment]*goCandidate{},
		sunk:         map[*stmt.Fragment]bool{},
		bound:        map[*stmt.Fragment]bool{},
		fieldMemo:    map[goFieldKey]goFieldMemo{},
		dir:          goDir(path),
	}
	if x.types == nil {
		x.types = &goTypes{fset: fset}
	}
	x.types.files = append(x.types.files, x)
	return x
}

// goDir is the folder of a file path, slash-separated.
func goDir(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// position ignores //line directives: findings point into the file as it is.
func (x *goExtractor) position(p token.Pos) token.Position {
	return x.fset.PositionFor(p, false)
}

func (x *goExtractor) offset(p token.Pos) int {
	if x.tf == nil || !p.IsValid() || int(p) < x.tf.Base() || int(p) > x.tf.Base()+x.tf.Size() {
		return -1
	}
	return x.tf.Offset(p)
}

func (x *goExtractor) extract() {
	x.index()
	x.reportConsts()
	x.reportLiterals()
	x.linkQueries()
	x.keepSQL()
	x.gormChains()
	stmt.SortFragments(x.frags)
}

// up returns the node holding e, looking through parentheses and
// conversions, and the child of that node on the way (e or a wrapper).
func (x *goExtractor) up(e ast.Node) (child, parent ast.Node) {
	child = e
	for {
		p := x.parent[child]
		switch q := p.(type) {
		case *ast.ParenExpr:
			child = q
			continue
		case *ast.CallExpr:
			if x.conversion(q) != nil && q.Args[0] == child {
				child = q
				continue
			}
		}
		return child, p
	}
}

// isPiece reports whether the string expression e is one part of a larger
// construct analysed as a whole: an operand of +, the text argument of a
// builder (fmt.Sprintf format, WriteString), an element of strings.Join.
func (x *goExtractor) isPiece(e ast.Expr) bool {
	child, p := x.up(e)
	switch p := p.(type) {
	case *ast.BinaryExpr:
		return p.Op == token.ADD
	case *ast.CallExpr:
		if b, ok := x.builderOf(p); ok {
			return b.textArg != nil && ast.Node(b.textArg) == child
		}
	case *ast.CompositeLit:
		if call, ok := x.parent[p].(*ast.CallExpr); ok && len(call.Args) > 0 && call.Args[0] == ast.Expr(p) {
			if b, ok := x.builderOf(call); ok && b.kind == "strings.Join" {
				return true
			}
		}
	}
	return false
}

// goPackageBase is the name a package path ends with, past a major version
// suffix (example.com/log/v2 is log).
func goPackageBase(path string) string {
	parts := strings.Split(path, "/")
	base := parts[len(parts)-1]
	if len(parts) > 1 && len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = parts[len(parts)-2]
	}
	return base
}

// pkgOf returns the import path of the package a selector's left side names,
// "" when it names something else.
func (x *goExtractor) pkgOf(sel *ast.SelectorExpr) string {
	id, ok := sel.X.(*ast.Ident)
	if !ok || x.imports[id.Name] == "" || x.objOf(id) != nil {
		return ""
	}
	return x.imports[id.Name]
}

// goCalleeName is the name of the function or method a call names.
func goCalleeName(call *ast.CallExpr) string {
	switch fun := goUnparen(call.Fun).(type) {
	case *ast.Ident:
		return fun.Name
	case *ast.SelectorExpr:
		return fun.Sel.Name
	}
	return ""
}

// enclosingName is the ID of a fragment at n: the enclosing function
// (Type.Method for a method), else the package-level variable it initialises.
func (x *goExtractor) enclosingName(n ast.Node) string {
	var varName string
	for p := n; p != nil; p = x.parent[p] {
		switch d := p.(type) {
		case *ast.FuncDecl:
			return goFuncName(d)
		case *ast.ValueSpec:
			if varName == "" && len(d.Names) > 0 {
				varName = d.Names[0].Name
				for i, v := range d.Values {
					if i < len(d.Names) && v.Pos() <= n.Pos() && n.End() <= v.End() {
						varName = d.Names[i].Name
					}
				}
			}
		}
	}
	return varName
}

func goFuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	for {
		switch tt := t.(type) {
		case *ast.StarExpr:
			t = tt.X
			continue
		case *ast.IndexExpr:
			t = tt.X
			continue
		case *ast.IndexListExpr:
			t = tt.X
			continue
		case *ast.ParenExpr:
			t = tt.X
			continue
		case *ast.Ident:
			return tt.Name + "." + d.Name.Name
		}
		return d.Name.Name
	}
}

// addStatic records a fragment of constant SQL. at is the construct it is
// reported at (a literal, a call, a constant's name); end its last line.
func (x *goExtractor) addStatic(v goString, at ast.Node, endLine int, id string) *stmt.Fragment {
	p := x.position(at.Pos())
	fr := &stmt.Fragment{File: x.path, Lang: stmt.LangGo, SQL: v.s, Segments: v.segs,
		Line: p.Line, Col: p.Column, EndLine: max(endLine, p.Line), ID: id}
	x.frags = append(x.frags, fr)
	return fr
}

// addUnchecked records SQL that cannot be checked, built at node n; it is
// reported at n, or at the call n is a direct argument of.
func (x *goExtractor) addUnchecked(n ast.Node, reason string) *stmt.Fragment {
	at := n
	if e, ok := n.(ast.Expr); ok {
		at = x.reportAt(e)
	}
	p := x.position(at.Pos())
	fr := &stmt.Fragment{File: x.path, Lang: stmt.LangGo, Unchecked: reason,
		Line: p.Line, Col: p.Column, EndLine: max(x.position(n.End()).Line, p.Line), ID: x.enclosingName(n)}
	x.frags = append(x.frags, fr)
	x.byNode[n] = fr
	return fr
}

// reportConsts reports each SQL constant at its declaration, unless every use
// of it is a piece of a larger construct (base + " WHERE …", a Sprintf format),
// which is reported instead.
func (x *goExtractor) reportConsts() {
	for i, name := range x.constNames {
		if !x.maySpellSQL(x.constExprs[i]) {
			continue
		}
		obj := x.objOf(name)
		if obj == nil || x.pieceOnly(obj) {
			continue
		}
		v, ok := x.constObject(obj, 0)
		if !ok || !goLooksLikeSQL(v.s) {
			continue
		}
		end := name.End()
		if val := x.constValue[obj]; val != nil && val.End() > end {
			end = val.End()
		}
		fr := x.addStatic(v, name, x.position(end).Line, name.Name)
		x.byConst[obj] = x.candidate(fr, &goCandidate{root: name, obj: obj})
	}
}

// maySpellSQL reports whether a constant's value e may fold to SQL: it names
// another constant of the file, or its literals spell SQL. Deciding it from
// the syntax spares the type check of a file whose constants are numbers
// and messages.
func (x *goExtractor) maySpellSQL(e ast.Expr) bool {
	named := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && x.constNamed[id.Name] {
			named = true
		}
		return !named
	})
	if named {
		return true
	}
	v, ok := x.constString(e)
	return ok && goLooksLikeSQL(v.s)
}

func (x *goExtractor) pieceOnly(obj *goObj) bool {
	n := 0
	for _, id := range x.uses[obj] {
		if spec, ok := x.parent[id].(*ast.ValueSpec); ok && slices.Contains(spec.Names, id) {
			continue // the declaration
		}
		if !x.isPiece(id) {
			return false
		}
		n++
	}
	return n > 0
}

// suppressions lists the guard:ignore comments of the file.
func (x *goExtractor) suppressions() []stmt.Suppression {
	var out []stmt.Suppression
	for _, g := range x.file.Comments {
		for _, c := range g.List {
			text := c.Text
			if strings.HasPrefix(text, "//") {
				text = text[2:]
			} else {
				text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
			}
			code, reason, ok := hostcode.ParseSuppression(text)
			if !ok {
				continue
			}
			p := x.position(c.Pos())
			out = append(out, stmt.Suppression{Code: code, Reason: reason, Line: p.Line, Col: p.Column})
		}
	}
	return out
}
