// Package goflow reads what surrounds a statement in a Go function: the
// distributed locks and transactions around it (stmt.Context), the
// parameters its placeholders bind, and the calls that pass a negated
// amount, which the lint driver joins across the files of a run.
package goflow

import (
	"go/ast"
	"go/token"

	"github.com/guard-sql/guard/internal/hostcode"
)

// What a function holds around its statements (stmt.Context): the
// distributed locks it takes — go-redis SetNX, go-zero's Setnx… and
// RedisLock, a redsync mutex — and the transaction it runs them in.

// lockCalls name the lock the calls of these methods take.
var lockCalls = map[string]string{
	"SetNX": "Redis SETNX (SetNX)", "Setnx": "Redis SETNX (Setnx)", "SetnxEx": "Redis SETNX (SetnxEx)",
	"SetnxCtx": "Redis SETNX (SetnxCtx)", "SetnxExCtx": "Redis SETNX (SetnxExCtx)",
}

// mutexCalls take the lock of a redsync mutex or a go-zero RedisLock,
// made by the constructor of mutexMakers in the same function.
var mutexCalls = map[string]bool{"Lock": true, "LockContext": true, "TryLock": true, "TryLockContext": true, "Acquire": true, "AcquireCtx": true}

var mutexMakers = map[string]string{"NewMutex": "redsync mutex", "NewRedisLock": "go-zero RedisLock"}

// unlockCalls release a lock.
var unlockCalls = map[string]bool{"Unlock": true, "UnlockContext": true, "Release": true, "ReleaseCtx": true, "Del": true, "DelCtx": true}

// txCalls open a transaction for what follows them, txFuncs for the
// function literal passed to them.
var (
	txCalls = map[string]bool{"Begin": true, "BeginTx": true, "Beginx": true, "BeginTxx": true, "MustBegin": true}
	txFuncs = map[string]bool{"Transaction": true, "TransactCtx": true, "Transact": true}
)

// Contexts sets the Context of the fragments and entity writes of out
// that stand in a function holding a lock or running a transaction.
func Contexts(fset *token.FileSet, f *ast.File, out *hostcode.File, src []byte) {
	pos := func(p token.Pos) hostcode.Pos {
		q := fset.Position(p)
		return hostcode.Pos{Line: q.Line, Col: q.Column}
	}
	var scopes []*hostcode.Scope
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		sc := &hostcode.Scope{Start: pos(fd.Body.Lbrace), End: pos(fd.Body.Rbrace)}
		var mutexes map[string]string // local name -> what made it
		var deferred map[*ast.CallExpr]bool
		begun := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.DeferStmt:
				if deferred == nil {
					deferred = map[*ast.CallExpr]bool{}
				}
				deferred[n.Call] = true // runs when the function returns
			case *ast.AssignStmt:
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					if id, ok := n.Lhs[0].(*ast.Ident); ok {
						if what := mutexMakers[callName(n.Rhs[0])]; what != "" {
							if mutexes == nil {
								mutexes = map[string]string{}
							}
							mutexes[id.Name] = what
						}
					}
				}
			case *ast.CallExpr:
				out.NegatedArgs = appendNegated(out.NegatedArgs, fset, n, out.Path, src)
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				name := sel.Sel.Name
				recv, _ := sel.X.(*ast.Ident)
				switch {
				case lockCalls[name] != "":
					sc.Locks = append(sc.Locks, hostcode.Lock{What: lockCalls[name], At: pos(n.Pos())})
				case mutexCalls[name] && recv != nil && mutexes[recv.Name] != "":
					sc.Locks = append(sc.Locks, hostcode.Lock{What: mutexes[recv.Name] + " (" + name + ")", At: pos(n.Pos())})
				case unlockCalls[name] && !deferred[n]:
					sc.Releases = append(sc.Releases, pos(n.Pos()))
				case txCalls[name] && !begun:
					begun = true
					sc.Transactions = append(sc.Transactions, hostcode.Transaction{What: name + "()", From: pos(n.End()), To: sc.End})
				case txFuncs[name]:
					for _, a := range n.Args {
						if fl, ok := a.(*ast.FuncLit); ok {
							sc.Transactions = append(sc.Transactions, hostcode.Transaction{What: name + "(func…)", From: pos(fl.Body.Lbrace), To: pos(fl.Body.Rbrace)})
						}
					}
				}
			}
			return true
		})
		scopes = append(scopes, sc)
	}
	hostcode.SetContexts(out, nil, scopes)
}

// callName is the name of the function or method e calls, "" when e is
// no call.
func callName(e ast.Expr) string {
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
