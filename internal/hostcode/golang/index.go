package golang

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// index records the file's syntax: parents, imports, constants and the
// names it declares. What the names refer to is indexed with the type
// check (indexObjects).
func (x *goExtractor) index() {
	var stack []ast.Node
	ast.Inspect(x.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			x.parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.ImportSpec:
			x.indexImport(n)
		case *ast.GenDecl:
			if n.Tok == token.CONST {
				x.indexConsts(n)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						x.declared[id.Name] = true
					}
				}
			}
			x.indexValues(n.Lhs, n.Rhs)
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						x.declared[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			x.declare(n.Names)
			x.indexValues(goIdentExprs(n.Names), n.Values)
		case *ast.Field:
			x.declare(n.Names)
		case *ast.FuncDecl:
			x.declared[n.Name.Name] = true
			x.receiverTypeParams(n.Recv)
		case *ast.TypeSpec:
			x.declared[n.Name.Name] = true
			x.typeNamed[n.Name.Name] = true
			x.typeParams(n.TypeParams)
		case *ast.FuncType:
			x.typeParams(n.TypeParams)
		case *ast.LabeledStmt:
			x.declared[n.Label.Name] = true
		}
		return true
	})
}

func (x *goExtractor) declare(names []*ast.Ident) {
	for _, id := range names {
		x.declared[id.Name] = true
	}
}

// indexValues records the names assigned a database method value or a
// call's result.
func (x *goExtractor) indexValues(lhs, rhs []ast.Expr) {
	for _, r := range rhs {
		var names map[string]bool
		switch r := goUnparen(r).(type) {
		case *ast.SelectorExpr:
			if _, q := goQueryMethods[r.Sel.Name]; q || goSQLArgMethods[r.Sel.Name] || goStmtMethods[r.Sel.Name] {
				names = x.methodValues
			}
		case *ast.CallExpr:
			names = x.callResults
		}
		if names == nil {
			continue
		}
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
	}
}

// receiverTypeParams records the type parameters a method's receiver
// declares: K and V of func (m *Map[K, V]) f().
func (x *goExtractor) receiverTypeParams(recv *ast.FieldList) {
	if recv == nil || len(recv.List) == 0 {
		return
	}
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	var params []ast.Expr
	switch t := t.(type) {
	case *ast.IndexExpr:
		params = []ast.Expr{t.Index}
	case *ast.IndexListExpr:
		params = t.Indices
	}
	for _, p := range params {
		if id, ok := p.(*ast.Ident); ok {
			x.declared[id.Name] = true
			x.typeNamed[id.Name] = true
		}
	}
}

func (x *goExtractor) typeParams(l *ast.FieldList) {
	if l == nil {
		return
	}
	for _, f := range l.List {
		for _, id := range f.Names {
			x.typeNamed[id.Name] = true
		}
	}
}

func (x *goExtractor) indexImport(spec *ast.ImportSpec) {
	p, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return
	}
	name := p[strings.LastIndexByte(p, '/')+1:]
	if spec.Name != nil {
		name = spec.Name.Name
	}
	x.imports[name] = p
}

// indexConsts records the value of each constant of a declaration, repeating
// the previous values for a spec without any (const ( a = "x"; b )).
func (x *goExtractor) indexConsts(d *ast.GenDecl) {
	var last []ast.Expr
	for _, s := range d.Specs {
		spec, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		x.constSpecs[spec] = true
		if len(spec.Values) > 0 {
			last = spec.Values
		}
		for i, id := range spec.Names {
			if i >= len(last) {
				break
			}
			x.constNames = append(x.constNames, id)
			x.constExprs = append(x.constExprs, last[i])
			x.constNamed[id.Name] = true
		}
	}
}

// goAssign is one assignment to a variable: the i-th name of an assignment
// statement or a var declaration.
type goAssign struct {
	node ast.Node // *ast.AssignStmt or *ast.ValueSpec
	tok  token.Token
	lhs  int
	nlhs int
	rhs  []ast.Expr
}

// value is the expression assigned, nil when unknown. For a call returning
// several values, the first name gets the call itself: what matters of
// stmt, err := db.Prepare(q) or q, args, err := sqlx.In(q, ids) is the call.
func (a goAssign) value() ast.Expr {
	if a.tok == token.ADD_ASSIGN {
		return nil
	}
	if len(a.rhs) == a.nlhs {
		return a.rhs[a.lhs]
	}
	if len(a.rhs) == 1 && a.lhs == 0 {
		return a.rhs[0]
	}
	return nil
}
