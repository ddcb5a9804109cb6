package golang

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/stmt"
)

// What a function holds around its statements (stmt.Context): the
// distributed locks it takes — go-redis SetNX, go-zero's Setnx… and
// RedisLock, a redsync mutex — and the transaction it runs them in.

// goLockCalls name the lock the calls of these methods take.
var goLockCalls = map[string]string{
	"SetNX": "Redis SETNX (SetNX)", "Setnx": "Redis SETNX (Setnx)", "SetnxEx": "Redis SETNX (SetnxEx)",
	"SetnxCtx": "Redis SETNX (SetnxCtx)", "SetnxExCtx": "Redis SETNX (SetnxExCtx)",
}

// goMutexCalls take the lock of a redsync mutex or a go-zero RedisLock,
// made by the constructor of goMutexMakers in the same function.
var goMutexCalls = map[string]bool{"Lock": true, "LockContext": true, "TryLock": true, "TryLockContext": true, "Acquire": true, "AcquireCtx": true}

var goMutexMakers = map[string]string{"NewMutex": "redsync mutex", "NewRedisLock": "go-zero RedisLock"}

// goUnlockCalls release a lock.
var goUnlockCalls = map[string]bool{"Unlock": true, "UnlockContext": true, "Release": true, "ReleaseCtx": true, "Del": true, "DelCtx": true}

// goTxCalls open a transaction for what follows them, goTxFuncs for the
// function literal passed to them.
var (
	goTxCalls = map[string]bool{"Begin": true, "BeginTx": true, "Beginx": true, "BeginTxx": true, "MustBegin": true}
	goTxFuncs = map[string]bool{"Transaction": true, "TransactCtx": true, "Transact": true}
)

// goFuncContext is what one function holds.
type goFuncContext struct {
	start, end token.Pos
	locks      []goLock
	unlocks    []token.Pos
	txFrom     token.Pos // first Begin…: a transaction from there on
	tx         string    // that call
	txFuncs    []goTxFunc
}

// goTxFunc is a function literal a transaction runs.
type goTxFunc struct {
	from, to token.Pos
	call     string
}

type goLock struct {
	what string
	pos  token.Pos
	line int
}

// goContexts sets the Context of the fragments and entity writes of out
// that stand in a function holding a lock or running a transaction.
func goContexts(fset *token.FileSet, f *ast.File, out *hostcode.File) {
	var fns []*goFuncContext
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fc := &goFuncContext{start: fd.Body.Lbrace, end: fd.Body.Rbrace}
		mutexes := map[string]string{} // local name -> what made it
		deferred := map[*ast.CallExpr]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.DeferStmt:
				deferred[n.Call] = true // runs when the function returns
			case *ast.AssignStmt:
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					if id, ok := n.Lhs[0].(*ast.Ident); ok {
						if what := goMutexMakers[goCallName(n.Rhs[0])]; what != "" {
							mutexes[id.Name] = what
						}
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				name := sel.Sel.Name
				switch {
				case goLockCalls[name] != "":
					fc.locks = append(fc.locks, goLock{goLockCalls[name], n.Pos(), fset.Position(n.Pos()).Line})
				case goMutexCalls[name]:
					if recv, ok := sel.X.(*ast.Ident); ok && mutexes[recv.Name] != "" {
						fc.locks = append(fc.locks, goLock{mutexes[recv.Name] + " (" + name + ")", n.Pos(), fset.Position(n.Pos()).Line})
					}
				case goUnlockCalls[name] && !deferred[n]:
					fc.unlocks = append(fc.unlocks, n.Pos())
				case goTxCalls[name] && fc.txFrom == token.NoPos:
					fc.txFrom, fc.tx = n.End(), name+"()"
				case goTxFuncs[name]:
					for _, a := range n.Args {
						if fl, ok := a.(*ast.FuncLit); ok {
							fc.txFuncs = append(fc.txFuncs, goTxFunc{fl.Body.Lbrace, fl.Body.Rbrace, name + "(func…)"})
						}
					}
				}
			}
			return true
		})
		fns = append(fns, fc)
	}
	tf := fset.File(f.Pos())
	at := func(line, col int) *stmt.Context {
		if tf == nil || line < 1 || line > tf.LineCount() {
			return nil
		}
		pos := tf.LineStart(line) + token.Pos(col-1)
		for _, fc := range fns {
			if fc.start <= pos && pos <= fc.end {
				return fc.at(pos)
			}
		}
		return nil
	}
	for _, fr := range out.Fragments {
		fr.Context = at(fr.Line, fr.Col)
	}
	for i := range out.MapperCalls {
		out.MapperCalls[i].Context = at(out.MapperCalls[i].Line, out.MapperCalls[i].Col)
	}
}

// at is the context of a statement at pos of the function: the last lock
// taken before it and not released between, and the transaction.
func (fc *goFuncContext) at(pos token.Pos) *stmt.Context {
	var c stmt.Context
	if fc.txFrom != token.NoPos && fc.txFrom < pos {
		c.Transaction = fc.tx
	}
	for _, r := range fc.txFuncs {
		if r.from < pos && pos < r.to {
			c.Transaction = r.call
		}
	}
	for _, l := range fc.locks {
		if l.pos >= pos {
			continue
		}
		released := false
		for _, u := range fc.unlocks {
			released = released || l.pos < u && u < pos
		}
		if !released {
			c.Lock, c.LockLine = l.what, l.line
		}
	}
	if c == (stmt.Context{}) {
		return nil
	}
	return &c
}

// goCallName is the name of the function or method e calls, "" when e is
// no call.
func goCallName(e ast.Expr) string {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		return fn.Sel.Name
	case *ast.Ident:
		return fn.Name
	}
	return ""
}
