package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// What a method holds around its statements (stmt.Context): the
// distributed locks it takes — Spring Data Redis's setIfAbsent, Jedis's
// setnx or SET … NX, a Redisson lock — and the @Transactional it runs in.

// redissonGetters are the RedissonClient methods that return a lock.
var redissonGetters = map[string]bool{"getLock": true, "getFairLock": true, "getMultiLock": true, "getRedLock": true, "getSpinLock": true}

// redissonTypes are Redisson's lock types.
var redissonTypes = map[string]bool{"RLock": true, "RedissonLock": true, "RedissonMultiLock": true, "RedissonRedLock": true, "RedissonFairLock": true}

// lockSite is a lock taken in a method body.
type lockSite struct {
	what      string
	line, col int
}

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

// methodContext is what one method body holds.
type methodContext struct {
	start, end  [2]int // line and column of the body's '{' and '}'
	locks       []lockSite
	unlocks     [][2]int // where a lock is released: unlock(, delete(
	transaction string
}

// contexts sets the Context of the fragments and entity writes of f that
// stand in a method holding a lock or running in a transaction.
func (x *javaFile) contexts(f *File) {
	var ms []*methodContext
	byBody := map[int]*methodContext{}
	for _, m := range (Syntax{x}).Methods() {
		open, close := x.toks[m.body], x.toks[x.match[m.body]]
		mc := &methodContext{start: [2]int{open.line, open.col}, end: [2]int{close.line, close.col}}
		for _, a := range append(m.Annotations, m.ClassAnnotations...) {
			if a.Name == "Transactional" || strings.HasSuffix(a.Name, ".Transactional") {
				mc.transaction = "@Transactional"
			}
		}
		byBody[m.body] = mc
		ms = append(ms, mc)
	}
	for i, t := range x.toks {
		if t.kind != javaIdent || !x.is(i+1, "(") {
			continue
		}
		mc := byBody[x.methodBlock(i)]
		if mc == nil {
			continue
		}
		if what := x.lockAt(i); what != "" {
			mc.locks = append(mc.locks, lockSite{what: what, line: t.line, col: t.col})
		} else if x.is(i-1, ".") && (t.text == "unlock" || t.text == "delete" || t.text == "forceUnlock") {
			mc.unlocks = append(mc.unlocks, [2]int{t.line, t.col})
		}
	}
	at := func(line, col int) *stmt.Context {
		var in *methodContext // the innermost method holding the position
		for _, mc := range ms {
			if !before([2]int{line, col}, mc.start) && !before(mc.end, [2]int{line, col}) {
				in = mc
			}
		}
		if in == nil {
			return nil
		}
		return in.at([2]int{line, col})
	}
	for _, fr := range f.Fragments {
		fr.Context = at(fr.Line, fr.Col)
	}
	for _, calls := range [][]stmt.MapperCall{f.MapperCalls, f.ServiceCalls} {
		for i := range calls {
			calls[i].Context = at(calls[i].Line, calls[i].Col)
		}
	}
}

// at is the context of a statement at pos of the method: the last lock
// taken before it and not released between, and the transaction.
func (mc *methodContext) at(pos [2]int) *stmt.Context {
	c := stmt.Context{Transaction: mc.transaction}
	for _, l := range mc.locks {
		lp := [2]int{l.line, l.col}
		if !before(lp, pos) {
			continue
		}
		released := false
		for _, u := range mc.unlocks {
			released = released || before(lp, u) && before(u, pos)
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

// before reports whether position a comes before b.
func before(a, b [2]int) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }
