package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
)

// contexts sets the Context of the fragments and entity writes of f that
// stand in a method holding a lock — as the frameworks that know the lock
// clients tell it (Framework.Locks) — or running in a @Transactional.
func (x *javaFile) contexts(f *File) {
	if len(f.Fragments) == 0 && len(f.MapperCalls) == 0 && len(f.ServiceCalls) == 0 {
		return // nothing to set a context on
	}
	lockNames := frameworkLockNames()
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
		if t.kind != javaIdent || !lockNames[t.text] || !x.is(i-1, ".") || !x.is(i+1, "(") {
			continue
		}
		r, sc := x.chainStart(i), byBody[x.methodBlock(i)]
		c, ok := x.readCall(r, x.match[i+1]+1)
		if sc == nil || r >= i || !ok {
			continue
		}
		at := hostcode.Pos{Line: t.line, Col: t.col}
		for _, fw := range frameworks() {
			if what, release := "", false; fw.Locks != nil {
				if what, release = fw.Locks(c); what != "" {
					sc.Locks = append(sc.Locks, hostcode.Lock{What: what, At: at})
				} else if release {
					sc.Releases = append(sc.Releases, at)
				}
			}
		}
	}
	hostcode.SetContexts(f.File, f.ServiceCalls, scopes)
}
