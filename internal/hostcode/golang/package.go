package golang

import (
	"go/ast"
	"go/parser"
	"sort"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
)

// A goctl model is one package in several files: the generated
// productmodel_gen.go declares the column lists and the constructor that
// sets the table, and productmodel.go, which people extend, writes its own
// statements with them (`fmt.Sprintf("update %s set stock = stock - ? …",
// m.table)`, m a customProductModel embedding *defaultProductModel). Such a
// file alone leaves those names unknown; ExtractGoPackage type-checks it
// with the other files of its package, so that the names resolve to their
// declarations there and their values are computed.

// ExtractGoPackage is ExtractGo with the other Go files of the file's
// package (others, by path): the package-level variables and constants and
// the embedded model types a goctl-shaped fmt.Sprintf names are looked up
// in them. Files of another package, or that do not parse, are ignored.
func ExtractGoPackage(path string, src []byte, others map[string][]byte) *hostcode.File {
	return extractGo(path, src, others, nil)
}

// ExtractGoPackageWith is ExtractGoPackage with the model types of the
// whole run (see ExtractGoWith).
func ExtractGoPackageWith(path string, src []byte, others map[string][]byte, models *GoModels) *hostcode.File {
	return extractGo(path, src, others, models)
}

// readPackage parses the files of others that belong to the package of x,
// in the order of their paths, into the type check of x.
func (x *goExtractor) readPackage(others map[string][]byte) {
	paths := make([]string, 0, len(others))
	for p := range others {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src := others[p]
		if src == nil {
			continue
		}
		f, err := parser.ParseFile(x.fset, p, src, parser.SkipObjectResolution)
		if err != nil || f.Name == nil || f.Name.Name != x.file.Name.Name {
			continue
		}
		newGoExtractor(p, src, x.fset, f, x.types).index()
	}
}

// siblingValue computes obj, a package-level constant or variable another
// file of the package declares.
func (r *goFixedResolver) siblingValue(obj *goObj, depth int) (goFixed, bool) {
	switch obj.kind {
	case goCon:
		s, ok := obj.file.constString(obj.ident)
		return goFixed{s: s.s}, ok
	case goVar:
		sr := &goFixedResolver{x: obj.file, seen: r.seen}
		v, ok := sr.packageVar(obj.ident, depth)
		if !ok && sr.why != "" {
			r.fail(sr.why)
		}
		return v, ok
	}
	return goFixed{}, false
}

// embeddedField computes field name of type typ from the types typ embeds
// that another file of the package declares (customProductModel embeds
// *defaultProductModel, whose table the generated constructor sets); found
// is false when no embedded type of another file is known.
func (r *goFixedResolver) embeddedField(typ *ast.Ident, name string, depth int) (v goFixed, why string, ok, found bool) {
	obj := r.x.objOf(typ)
	if obj == nil {
		return goFixed{}, "", false, false
	}
	spec, isSpec := obj.decl.(*ast.TypeSpec)
	if !isSpec {
		return goFixed{}, "", false, false
	}
	st, isStruct := spec.Type.(*ast.StructType)
	if !isStruct || st.Fields == nil {
		return goFixed{}, "", false, false
	}
	for _, f := range st.Fields.List {
		if len(f.Names) > 0 {
			continue
		}
		emb := goTypeIdent(f.Type)
		if emb == nil || r.x.objOf(emb) != nil {
			continue
		}
		if v, why, ok, found := r.siblingField(emb, name, depth); found {
			return v, why, ok, true
		}
	}
	return goFixed{}, "", false, false
}

// siblingField computes field name of the type typ names, which another
// file of the package declares; found is false when none read does.
func (r *goFixedResolver) siblingField(typ *ast.Ident, name string, depth int) (v goFixed, why string, ok, found bool) {
	r.x.wantPackage()
	obj := r.x.pkgObjOf(typ)
	if obj == nil || obj.kind != goTyp || obj.file == r.x {
		return goFixed{}, "", false, false
	}
	sib := obj.file
	key := goFieldKey{obj, name}
	if m, done := sib.fieldMemo[key]; done {
		return m.val, m.why, m.ok, true
	}
	// The field's value is the one the declaring file gives it, as long as
	// no file of the package assigns a field of that name.
	for _, x := range r.x.types.files {
		if line := x.fieldAssigned(name); line > 0 {
			why := "field `" + name + "` of " + typ.Name + " is assigned at " + x.path + ":" + strconv.Itoa(line)
			sib.fieldMemo[key] = goFieldMemo{why: why}
			return goFixed{}, why, false, true
		}
	}
	sib.fieldMemo[key] = goFieldMemo{why: "field `" + name + "` of " + typ.Name + " is set from itself"} // a cycle
	sr := &goFixedResolver{x: sib, seen: r.seen}
	v, why, ok = sr.fieldValue(obj.ident, name, depth+1)
	sib.fieldMemo[key] = goFieldMemo{val: v, why: why, ok: ok}
	return v, why, ok, true
}

// fieldAssigned returns the line of an assignment of the file to a field
// named name (`x.table = …`), 0 when there is none.
func (x *goExtractor) fieldAssigned(name string) int {
	line := 0
	ast.Inspect(x.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || line > 0 {
			return line == 0
		}
		for _, l := range as.Lhs {
			if s, ok := goUnparen(l).(*ast.SelectorExpr); ok && s.Sel.Name == name {
				line = x.position(as.Pos()).Line
			}
		}
		return true
	})
	return line
}

// packageAssigns counts the assignments of the variable obj in the files
// read.
func (x *goExtractor) packageAssigns(obj *goObj) int {
	n := 0
	for _, f := range x.types.files {
		n += len(f.assigns[obj])
	}
	return n
}

// packageMutates reports whether a file read changes the variable obj other
// than by assigning it (see mutated).
func (x *goExtractor) packageMutates(obj *goObj) bool {
	for _, f := range x.types.files {
		if f.mutated(obj) {
			return true
		}
	}
	return false
}

// wantPackage records that the file, read alone, names what another file
// of its package declares. Only a file importing go-zero asks for its
// package: a goctl model's files are read together, any other package is
// not read again for each of its files.
func (x *goExtractor) wantPackage() {
	if len(x.types.files) > 1 || x.needsPackage {
		return
	}
	for _, path := range x.imports {
		if strings.Contains(path, "/go-zero/") {
			x.needsPackage = true
			return
		}
	}
}
