package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Names are resolved by go/types, over the file and the other files of its
// package when they are read with it (ExtractGoPackage). Imports are empty
// packages made up on the spot: guard reads no dependency, so what a name
// of another package is stays unknown, and the errors that follow are
// ignored. The type check is made on the first question about a name the
// package declares: a file that holds no SQL asks none, and is not checked.

// goObjKind is the kind of a declared name.
type goObjKind uint8

const (
	goVar goObjKind = iota + 1 // a variable, a parameter, a struct field
	goCon                      // a constant
	goTyp                      // a type
	goFun                      // a function
	goLbl                      // a label
)

// goObj is a name declared in a file of the package, as the extractor sees
// it: the analysis keys its facts (assignments, uses, constant values) by
// it.
type goObj struct {
	name  string
	kind  goObjKind
	ident *ast.Ident // the declaring name
	// decl is the node declaring it: *ast.ValueSpec, *ast.AssignStmt,
	// *ast.Field (a parameter, a result, a receiver, a struct field),
	// *ast.FuncDecl, *ast.TypeSpec, *ast.RangeStmt or *ast.LabeledStmt.
	decl ast.Node
	file *goExtractor // the file declaring it; nil when none read declares it
}

// goTypes is the type check of the files read together: the file being
// extracted first, so that its declarations win over a conflicting one of
// another file.
type goTypes struct {
	fset  *token.FileSet
	files []*goExtractor
	info  *types.Info
	objs  map[types.Object]*goObj
	// switchVars are the symbolic variables of type switches
	// (`switch v := e.(type)`): go/types declares one per clause, the
	// analysis sees one.
	switchVars map[*ast.Ident]*goObj
	done       bool
}

// check type-checks the files, once, and indexes what each declares and
// uses.
func (t *goTypes) check() {
	if t.done {
		return
	}
	t.done = true
	t.info = &types.Info{
		Defs:      map[*ast.Ident]types.Object{},
		Uses:      map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{},
	}
	t.objs = map[types.Object]*goObj{}
	t.switchVars = map[*ast.Ident]*goObj{}
	files := make([]*ast.File, len(t.files))
	for i, x := range t.files {
		files[i] = x.file
	}
	conf := types.Config{Importer: goFakeImporter{}, Error: func(error) {}, FakeImportC: true}
	func() {
		// A file go/parser recovered from a syntax error is an AST go/types
		// may not expect; what it resolved before giving up is kept.
		defer func() { _ = recover() }()
		_, _ = conf.Check("p", t.fset, files, t.info)
	}()
	for _, x := range t.files {
		x.indexObjects()
	}
}

// declares reports whether a file of the check declares a name spelled
// name anywhere: only then can an identifier so spelled name something of
// the package.
func (t *goTypes) declares(name string) bool {
	for _, x := range t.files {
		if x.declared[name] {
			return true
		}
	}
	return false
}

// recOf is the record of what id declares or refers to; nil for the name of
// an import, a predeclared name, a field or a method (as a selector names
// them), and a name go/types did not resolve.
func (t *goTypes) recOf(id *ast.Ident) *goObj {
	if r := t.switchVars[id]; r != nil {
		return r
	}
	if o := t.info.Uses[id]; o != nil {
		return t.record(o, false)
	}
	return t.record(t.info.Defs[id], true)
}

// record is the record of o, made on first sight; def tells that o is
// seen where it is declared.
func (t *goTypes) record(o types.Object, def bool) *goObj {
	var kind goObjKind
	switch o := o.(type) {
	case *types.Var:
		if o.IsField() && !def {
			return nil
		}
		kind = goVar
	case *types.Const:
		kind = goCon
	case *types.TypeName:
		kind = goTyp
	case *types.Func:
		if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
			return nil
		}
		kind = goFun
	case *types.Label:
		kind = goLbl
	default: // nil, *types.PkgName, *types.Builtin, *types.Nil
		return nil
	}
	if o.Parent() == types.Universe {
		return nil
	}
	r := t.objs[o]
	if r == nil {
		r = &goObj{name: o.Name(), kind: kind}
		t.objs[o] = r
	}
	return r
}

// objOf is what id names when this file declares it, the answer
// go/parser's own resolution gave: nil for a name another file declares, an import's,
// a predeclared one.
func (x *goExtractor) objOf(id *ast.Ident) *goObj {
	if id == nil || !x.declared[id.Name] {
		return nil
	}
	x.types.check()
	if r := x.types.recOf(id); r != nil && r.file == x {
		return r
	}
	return nil
}

// pkgObjOf is what id names when a file read with this one declares it.
func (x *goExtractor) pkgObjOf(id *ast.Ident) *goObj {
	if id == nil || !x.types.declares(id.Name) {
		return nil
	}
	x.types.check()
	if r := x.types.recOf(id); r != nil && r.file != nil {
		return r
	}
	return nil
}

// universal reports whether id names a predeclared object: a builtin
// function, a basic type, true, false, nil, iota.
func (x *goExtractor) universal(id *ast.Ident) bool {
	if types.Universe.Lookup(id.Name) == nil {
		return false
	}
	if !x.types.declares(id.Name) {
		return true // nothing read with the file can hide it
	}
	x.types.check()
	o := x.types.info.Uses[id]
	return o != nil && o.Parent() == types.Universe
}

// indexObjects records the declarations, assignments, constant values and
// uses of the file by the objects go/types resolved.
func (x *goExtractor) indexObjects() {
	t := x.types
	for i, name := range x.constNames {
		if r := t.recOf(name); r != nil {
			x.constValue[r] = x.constExprs[i]
		}
	}
	ast.Inspect(x.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSwitchStmt:
			x.indexSwitchVar(n)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE || n.Tok == token.ASSIGN || n.Tok == token.ADD_ASSIGN {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if r := t.recOf(id); r != nil {
							x.assigns[r] = append(x.assigns[r], goAssign{node: n, tok: n.Tok, lhs: i, nlhs: len(n.Lhs), rhs: n.Rhs})
						}
					}
				}
			}
		case *ast.ValueSpec:
			if !x.constSpecs[n] {
				for i, id := range n.Names {
					if r := t.recOf(id); r != nil {
						x.assigns[r] = append(x.assigns[r], goAssign{node: n, tok: token.DEFINE, lhs: i, nlhs: len(n.Names), rhs: n.Values})
					}
				}
			}
		case *ast.Ident:
			if r := t.record(t.info.Defs[n], true); r != nil && r.file == nil {
				r.ident, r.decl, r.file = n, x.parent[n], x
			}
			if r := t.recOf(n); r != nil {
				x.uses[r] = append(x.uses[r], n)
			}
		}
		return true
	})
}

// indexSwitchVar gives the symbolic variable of a type switch one record
// for all its clauses, declared by the switch's assignment.
func (x *goExtractor) indexSwitchVar(s *ast.TypeSwitchStmt) {
	as, ok := s.Assign.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || s.Body == nil {
		return
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	r := &goObj{name: id.Name, kind: goVar, ident: id, decl: as, file: x}
	x.types.switchVars[id] = r
	for _, c := range s.Body.List {
		if o := x.types.info.Implicits[c]; o != nil {
			x.types.objs[o] = r
		}
	}
}

// goFakeImporter gives every import path an empty package, complete, named
// by the path's last element: guard reads no dependency, from the network
// or from the disk.
type goFakeImporter map[string]*types.Package

// Import returns the package of path.
func (m goFakeImporter) Import(path string) (*types.Package, error) {
	if p := m[path]; p != nil {
		return p, nil
	}
	p := types.NewPackage(path, goImportName(path))
	p.MarkComplete()
	m[path] = p
	return p, nil
}

// goImportName is the name a package of path is likely declared with: its
// last element, past a major version (example.com/redis/v9 is redis) and
// gopkg.in's version suffix (gopkg.in/yaml.v3 is yaml).
func goImportName(path string) string {
	base := goPackageBase(path)
	if strings.HasPrefix(path, "gopkg.in/") {
		if i := strings.LastIndex(base, ".v"); i > 0 && len(base) > i+2 && strings.Trim(base[i+2:], "0123456789") == "" {
			base = base[:i]
		}
	}
	return base
}
