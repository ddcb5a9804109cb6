package golang

import (
	"go/ast"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// goCandidate is what decides whether a fragment found by its first word is
// SQL, when no database call in the file runs it.
type goCandidate struct {
	// root is the expression holding the text, or the name of the constant
	// (obj) whose declaration the fragment stands for.
	root ast.Node
	obj  *goObj
	// holed is, for SQL built at run time, its constant parts joined with
	// blanks where the run-time parts go.
	holed string
	// bases are the fragments of the variable a fragment appends to: the
	// appended text is SQL when what it extends is.
	bases []*stmt.Fragment
	// verdict caches the decision: 0 not yet made, 1 SQL, 2 not SQL.
	verdict int8
}

// goSQLArgMethods are methods outside goQueryMethods whose names only a
// database library uses and that take a statement among their arguments:
// sqlx's GetContext and SelectContext, go-zero's sqlx and sqlc (ExecCtx,
// QueryRowCtx, QueryRowsNoCacheCtx, …). They confirm a string that looks like
// SQL, so that it is checked even when it does not parse; they never make one.
// Names also common outside databases (Get, Select, Raw) are left out: a
// string passed to them is decided like one of unknown use.
var goSQLArgMethods = map[string]bool{
	"GetContext": true, "SelectContext": true,
	"ExecCtx": true, "ExecNoCache": true, "ExecNoCacheCtx": true, "PrepareCtx": true,
	"QueryRowCtx": true, "QueryRows": true, "QueryRowsCtx": true,
	"QueryRowPartial": true, "QueryRowPartialCtx": true, "QueryRowsPartial": true, "QueryRowsPartialCtx": true,
	"QueryRowNoCache": true, "QueryRowNoCacheCtx": true, "QueryRowsNoCache": true, "QueryRowsNoCacheCtx": true,
}

// candidate records how to decide on fr when no database call runs it.
func (x *goExtractor) candidate(fr *stmt.Fragment, c *goCandidate) *stmt.Fragment {
	x.cands[fr] = c
	return fr
}

// markSunk records that a database call runs the fragments.
func (x *goExtractor) markSunk(frs []*stmt.Fragment) {
	for _, fr := range frs {
		x.sunk[fr] = true
	}
}

// linkSQLArgs confirms the SQL-looking strings passed to a method of
// goSQLArgMethods, in whatever argument they stand.
func (x *goExtractor) linkSQLArgs(call *ast.CallExpr, name string) {
	if !goSQLArgMethods[name] {
		return
	}
	for i, a := range call.Args {
		frs := x.resolve(a, false)
		x.markSunk(frs)
		x.bindSteps(call, i, frs)
	}
}

// keepSQL drops the fragments that are not SQL after all.
func (x *goExtractor) keepSQL() {
	x.frags = slices.DeleteFunc(x.frags, func(fr *stmt.Fragment) bool { return !x.isSQL(fr, 0) })
}

// isSQL decides whether fr is SQL: a database call runs it, or, when none in
// the file does, it is not only the text of messages and either its holder's
// or its function's name says SQL or it parses (has a statement's skeleton,
// for SQL built at run time).
func (x *goExtractor) isSQL(fr *stmt.Fragment, depth int) bool {
	c := x.cands[fr]
	if x.sunk[fr] || c == nil {
		return true
	}
	if c.verdict != 0 || depth > goMaxDepth {
		return c.verdict == 1
	}
	c.verdict = 2 // a fragment extending itself is not SQL through itself
	ok := false
	switch {
	case x.onlyMessages(c):
	case hostcode.SQLName(x.holderName(c)) || x.inSQLFunc(c):
		ok = true
	case c.bases != nil:
		for _, b := range c.bases {
			if b != fr && x.isSQL(b, depth+1) {
				ok = true
			}
		}
	case fr.Unchecked == "":
		if x.parser == nil {
			x.parser = sqlparse.NewParser()
		}
		ok = x.parser.HoldsStatement(fr.SQL)
	default:
		ok = sqlparse.LooksLikeStatement(c.holed)
	}
	if ok {
		c.verdict = 1
	}
	return ok
}

// onlyMessages reports whether every use of the candidate's text is as the
// text of a message: an error, a log line, a panic, a test's name.
func (x *goExtractor) onlyMessages(c *goCandidate) bool {
	if c.obj != nil {
		return x.objOnlyMessages(c.obj, 0)
	}
	return c.root != nil && x.toMessage(c.root, 0)
}

// holderName is the name of what holds the candidate's text: the constant,
// the variable it is assigned to, the field of a composite literal it
// gives; "" when none.
func (x *goExtractor) holderName(c *goCandidate) string {
	if c.obj != nil {
		return c.obj.name
	}
	if c.root == nil {
		return ""
	}
	child, p := x.up(c.root)
	switch p := p.(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, r := range p.Rhs {
				if id, ok := p.Lhs[i].(*ast.Ident); ok && ast.Node(r) == child {
					return id.Name
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for i, v := range p.Values {
				if ast.Node(v) == child {
					return p.Names[i].Name
				}
			}
		}
	case *ast.KeyValueExpr:
		if id, ok := p.Key.(*ast.Ident); ok && ast.Node(p.Value) == child {
			return id.Name
		}
	}
	return ""
}

// inSQLFunc reports whether the candidate stands in a function whose name
// says it makes SQL (ToSQL, buildSQL). "query" does not count here: handlers
// are named QueryUsers too.
func (x *goExtractor) inSQLFunc(c *goCandidate) bool {
	for n := c.root; n != nil; n = x.parent[n] {
		if d, ok := n.(*ast.FuncDecl); ok {
			return strings.Contains(strings.ToLower(d.Name.Name), "sql")
		}
	}
	return false
}

// toMessage reports whether the value of e ends in messages only: e is a
// message's argument, or the value of variables read only by messages.
func (x *goExtractor) toMessage(e ast.Node, depth int) bool {
	if depth > goMaxDepth {
		return false
	}
	child, p := x.up(e)
	switch p := p.(type) {
	case *ast.CallExpr:
		return ast.Node(p.Fun) != child && x.isMessageCall(p)
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for i, r := range p.Rhs {
			if ast.Node(r) == child {
				id, ok := p.Lhs[i].(*ast.Ident)
				if !ok {
					return false
				}
				obj := x.objOf(id)
				return obj != nil && x.objOnlyMessages(obj, depth+1)
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) != len(p.Values) {
			return false
		}
		for i, v := range p.Values {
			if ast.Node(v) == child {
				obj := x.objOf(p.Names[i])
				return obj != nil && x.objOnlyMessages(obj, depth+1)
			}
		}
	}
	return false
}

// objOnlyMessages reports whether a variable or constant is read, and only
// by messages.
func (x *goExtractor) objOnlyMessages(obj *goObj, depth int) bool {
	if depth > goMaxDepth {
		return false
	}
	reads := 0
	for _, id := range x.uses[obj] {
		if x.isDefinition(id) {
			continue
		}
		if !x.toMessage(id, depth+1) {
			return false
		}
		reads++
	}
	return reads > 0
}

// isDefinition reports whether id is a name being declared or assigned to.
func (x *goExtractor) isDefinition(id *ast.Ident) bool {
	switch p := x.parent[id].(type) {
	case *ast.ValueSpec:
		return slices.Contains(p.Names, id)
	case *ast.AssignStmt:
		return slices.Contains(p.Lhs, ast.Expr(id))
	}
	return false
}

// holedText joins the constant operands of a + chain, a blank standing for
// each run-time operand.
func (x *goExtractor) holedText(ops []ast.Expr) string {
	var b strings.Builder
	for _, op := range ops {
		if v, ok := x.constString(op); ok && b.Len()+len(v.s) <= goMaxConstLen {
			b.WriteString(v.s)
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// builderText is the constant text a builder call contributes: its format or
// written text, or the elements of strings.Join's literal slice.
func (x *goExtractor) builderText(call *ast.CallExpr, b goBuilder) string {
	if b.kind == "strings.Join" {
		if lit, ok := goUnparen(call.Args[0]).(*ast.CompositeLit); ok {
			return x.holedText(lit.Elts)
		}
	}
	return x.holedText(goFlattenConcat(b.textArg))
}
