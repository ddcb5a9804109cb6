package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
)

// What a method holds around its statements (stmt.Context): the
// distributed locks it takes, as the frameworks that know the lock clients
// tell them (Framework.Locks), and the @Transactional it runs in.

// lockAt asks the registered frameworks what the call whose method name
// is token i does to a lock: takes one (named), or releases one.
func (x *javaFile) lockAt(i int) (what string, release bool) {
	if !x.is(i-1, ".") || !x.is(i+1, "(") {
		return "", false
	}
	r := x.chainStart(i)
	if r >= i || !x.isIdent(r) {
		return "", false
	}
	c, ok := x.readCall(r, x.match[i+1]+1)
	if !ok {
		return "", false
	}
	for _, fw := range frameworks() {
		if fw.Locks != nil {
			if what, release = fw.Locks(c); what != "" || release {
				return what, release
			}
		}
	}
	return "", false
}

// contexts sets the Context of the fragments and entity writes of f
// that stand in a method holding a lock or running in a transaction.
func (x *javaFile) contexts(f *File) {
	var scopes []*hostcode.Scope
	byBody := map[int]*hostcode.Scope{}
	for _, m := range (Syntax{x}).Methods() {
		open, close := x.toks[m.body], x.toks[x.match[m.body]]
		sc := &hostcode.Scope{Start: hostcode.Pos{Line: open.line, Col: open.col}, End: hostcode.Pos{Line: close.line, Col: close.col}}
		for _, a := range append(m.Annotations, m.ClassAnnotations...) {
			if a.Name == "Transactional" || strings.HasSuffix(a.Name, ".Transactional") {
				sc.Transactions = []hostcode.Transaction{{What: "@Transactional", From: sc.Start, To: sc.End}}
			}
		}
		byBody[m.body] = sc
		scopes = append(scopes, sc)
	}
	for i, t := range x.toks {
		if t.kind != javaIdent || !x.is(i+1, "(") {
			continue
		}
		sc := byBody[x.methodBlock(i)]
		if sc == nil {
			continue
		}
		at := hostcode.Pos{Line: t.line, Col: t.col}
		switch what, release := x.lockAt(i); {
		case what != "":
			sc.Locks = append(sc.Locks, hostcode.Lock{What: what, At: at})
		case release:
			sc.Releases = append(sc.Releases, at)
		}
	}
	hostcode.SetContexts(f.File, f.ServiceCalls, scopes)
}
