package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
)

// What a method holds around its statements (stmt.Context): the
// distributed locks it takes — Spring Data Redis's setIfAbsent, Jedis's
// setnx or SET … NX, a Redisson lock — and the @Transactional it runs in.

// redissonGetters are the RedissonClient methods that return a lock.
var redissonGetters = map[string]bool{"getLock": true, "getFairLock": true, "getMultiLock": true, "getRedLock": true, "getSpinLock": true}

// redissonTypes are Redisson's lock types.
var redissonTypes = map[string]bool{"RLock": true, "RedissonLock": true, "RedissonMultiLock": true, "RedissonRedLock": true, "RedissonFairLock": true}

// lockAt names the lock the call whose method name is token i takes, ""
// when it takes none guard knows.
func (x *javaFile) lockAt(i int) string {
	if !x.is(i-1, ".") || !x.is(i+1, "(") {
		return ""
	}
	switch m := x.toks[i].text; m {
	case "setIfAbsent":
		return "Redis SET NX (setIfAbsent)"
	case "setnx", "setNX":
		return "Redis SETNX"
	case "set":
		for k := i + 2; k < x.match[i+1]; k++ {
			if x.is(k, "nx") && x.is(k-1, ".") && x.is(k+1, "(") {
				return "Redis SET NX"
			}
		}
	case "lock", "tryLock", "lockInterruptibly":
		r := x.chainStart(i)
		if r >= i || !x.isIdent(r) {
			return ""
		}
		if x.is(r+1, ".") && redissonGetters[x.toks[r+2].text] {
			return "Redisson lock (" + x.toks[r+2].text + "… " + m + ")"
		}
		name := x.toks[r].text
		if redissonTypes[x.declaredType(name, r)] {
			return "Redisson lock (" + m + ")"
		}
		if body := x.methodBlock(i); body >= 0 {
			if d := x.localDecl(name, body, r); d >= 0 && x.is(d+1, "=") && x.isIdent(d+2) && x.is(d+3, ".") && redissonGetters[x.toks[d+4].text] {
				return "Redisson lock (" + x.toks[d+4].text + "… " + m + ")"
			}
		}
	}
	return ""
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
		if what := x.lockAt(i); what != "" {
			sc.Locks = append(sc.Locks, hostcode.Lock{What: what, At: at})
		} else if x.is(i-1, ".") && (t.text == "unlock" || t.text == "delete" || t.text == "forceUnlock") {
			sc.Releases = append(sc.Releases, at)
		}
	}
	hostcode.SetContexts(f.File, f.ServiceCalls, scopes)
}
