package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// MyBatis-Plus builds an UPDATE from a wrapper chain: `update(null, new
// LambdaUpdateWrapper<Sku>().setSql("stock = stock - " + n).eq(Sku::getId,
// id))` sends `UPDATE sku SET stock = stock - ? WHERE id = ?`. guard renders
// the chains it can read completely into that text, as a Fragment with
// Builder set, standing at the update call; the values the code binds are
// `?`, and so are the non-constant parts of setSql and apply texts.
//
// A method with a boolean first argument (`eq(n > 0, Sku::getId, id)`) and
// a call on a wrapper variable inside a block nested in the one that
// declares it may not run: such a predicate is left out of the WHERE — a
// guard that may be absent guards nothing — but a wrapper whose every
// predicate may be absent is not rendered, since its WHERE is not surely
// empty either. Such a SET item is kept: a write that may happen is judged.
// A setSql or apply text held in a local assigned in several branches
// gives one variant of the statement per value. A chain guard cannot read
// completely (a method it does not know, a wrapper passed elsewhere, a
// setSql text it cannot evaluate) is reported as not checked, naming why.
// An entity argument guard cannot see is not rendered when it may carry a
// @Version (the interceptor would add a compare) or the wrapper sets
// nothing itself.

// plusOp is one method call of a wrapper chain.
type plusOp struct {
	method string
	tok    int // the method name
	args   []javaRange
	// maybe is set when the call may not run (a nested block).
	maybe bool
}

// plusChain is a wrapper as the code builds it before the update call.
type plusChain struct {
	kind    string // LambdaUpdateWrapper, UpdateWrapper, lambdaUpdate()
	class   string // the entity class, "" when the code does not say
	ctorArg *javaRange
	ops     []plusOp
	// why is set when guard cannot read the chain completely.
	why string
}

// plusRender accumulates the SQL of one rendered write.
type plusRender struct {
	x    *javaFile
	pe   plusEntity
	text Text
	why  string
	// override gives a text argument that is a local's name (its token)
	// the value of one of the local's assignments: one variant each.
	override map[int]javaRange
}

// generated appends text guard writes itself, placed at token k.
func (r *plusRender) generated(s string, k int) {
	t := r.x.toks[k]
	for i := 0; i < len(s); i++ {
		r.text = append(r.text, Char{B: s[i], Line: t.line, Col: t.col + i})
	}
}

// fail records the first reason the write cannot be rendered.
func (r *plusRender) fail(why string) {
	if r.why == "" {
		r.why = why
	}
}

// plusWrappers renders the wrapper updates of the file.
func (x *javaFile) plusWrappers() {
	for i := 1; i+1 < len(x.toks); i++ {
		if x.toks[i].kind != javaIdent || !x.is(i+1, "(") {
			continue
		}
		switch x.toks[i].text {
		case "update":
			if x.match[i+1] == i+2 && x.is(i+3, ".") {
				x.plusChainUpdate(i) // update().setSql(…).eq(…).update()
			} else {
				x.plusUpdateCall(i)
			}
		case "lambdaUpdate":
			if !x.is(i-1, ".") || !x.is(i-2, "Wrappers") {
				x.plusChainUpdate(i)
			}
		}
	}
}

// plusUpdateCall renders `recv.update(entity, wrapper)`, `update(wrapper)`
// or a bare `update(null, wrapper)` of a mapper or service, when the
// wrapper is a chain the method builds.
func (x *javaFile) plusUpdateCall(i int) {
	if x.declaresMethod(i) || x.methodBlock(i) < 0 {
		return
	}
	close := x.match[i+1]
	args := x.split(i+2, close, ",")
	if len(args) != 1 && len(args) != 2 {
		return
	}
	w := args[len(args)-1]
	chain, ok := x.plusWrapperExpr(w, i)
	if !ok {
		return
	}
	var entity *javaRange
	if len(args) == 2 && !(args[0].e == args[0].s+1 && x.is(args[0].s, "null")) {
		entity = &args[0]
	}
	start := x.callStart(i)
	method := "BaseMapper.update"
	if x.serviceReceiver(i) {
		method = "IService.update"
	}
	x.plusEmit(chain, entity, start, i, close, method)
}

// plusChainUpdate renders `lambdaUpdate().eq(…).set(…).update()` of a
// service (IService's LambdaUpdateChainWrapper), or `update()…update()`
// (its UpdateChainWrapper, columns named by string).
func (x *javaFile) plusChainUpdate(i int) {
	if x.declaresMethod(i) || x.methodBlock(i) < 0 || x.match[i+1] != i+2 {
		return
	}
	start := x.toks[i].text + "()"
	chain := &plusChain{kind: start, class: x.extendsServiceImpl(i)}
	k := i + 3
	for x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		m := x.toks[k+1].text
		close := x.match[k+2]
		args := x.split(k+3, close, ",")
		if m == "update" && x.is(close+1, ";") {
			var entity *javaRange
			if len(args) == 1 {
				entity = &args[0]
			}
			x.plusEmit(chain, entity, x.callStart(i), k+1, close, "IService."+start+".update")
			return
		}
		chain.ops = append(chain.ops, plusOp{method: m, tok: k + 1, args: args})
		k = close + 1
	}
}

// callStart is the first token of the call whose name is token i: its
// receiver chain, or the name itself.
func (x *javaFile) callStart(i int) int {
	s := i
	for x.is(s-1, ".") {
		p := s - 2
		if x.is(p, ")") {
			p = x.match[p] - 1
		}
		if !x.isIdent(p) {
			break
		}
		s = p
	}
	return s
}

// serviceReceiver reports whether the call named at token i is made on a
// MyBatis-Plus service (IService: its update returns boolean): a receiver
// named like one, or a bare call in a class extending ServiceImpl.
func (x *javaFile) serviceReceiver(i int) bool {
	if x.is(i-1, ".") && !x.is(i-2, "this") {
		if !x.isIdent(i - 2) {
			return false
		}
		name := strings.ToLower(x.toks[i-2].text)
		return strings.HasSuffix(name, "service") || strings.HasSuffix(name, "serviceimpl")
	}
	return x.extendsServiceImpl(i) != ""
}

// extendsServiceImpl returns the entity class of the ServiceImpl<M, T> the
// class holding token i extends, "" when it extends none.
func (x *javaFile) extendsServiceImpl(i int) string {
	args := x.superArgs(i)
	if args.name == "ServiceImpl" && len(args.types) == 2 {
		return args.types[1]
	}
	return ""
}

// superType is the simple name and type arguments of what a class or
// interface extends: BaseMapperX<ProductSkuDO>.
type superType struct {
	name  string
	types []string
}

// superArgs returns the first extended type of the innermost type
// declaration holding token i.
func (x *javaFile) superArgs(i int) superType {
	for b := x.encl[i]; b >= 0; b = x.blocks[b].parent {
		if k := x.blocks[b].kind; k != javaBlockType && k != javaBlockInterface {
			continue
		}
		// class Name<…> extends Super<A, B> implements … {
		for k := b - 1; k >= 0 && !x.is(k, ";") && !x.is(k, "}") && !x.is(k, "{"); k-- {
			if !x.is(k, "extends") || !x.isIdent(k+1) {
				continue
			}
			st := superType{}
			j := k + 1
			for x.isIdent(j) && x.is(j+1, ".") {
				j += 2
			}
			st.name = x.toks[j].text
			if x.is(j+1, "<") {
				depth := 0
				for m := j + 1; m < b; m++ {
					switch {
					case x.is(m, "<"):
						depth++
					case x.is(m, ">"):
						depth--
					case depth == 1 && x.isIdent(m) && (x.is(m+1, ",") || x.is(m+1, ">")):
						st.types = append(st.types, x.toks[m].text)
					}
					if depth == 0 {
						break
					}
				}
			}
			return st
		}
		return superType{}
	}
	return superType{}
}

// mapperEntity is the entity class of the mapper interface holding token
// i: the type argument of the BaseMapper it extends.
func (x *javaFile) mapperEntity(i int) string {
	st := x.superArgs(i)
	if strings.Contains(st.name, "Mapper") && len(st.types) == 1 {
		return st.types[0]
	}
	return ""
}

// plusWrapperExpr reads the wrapper argument w of an update call at token
// call: a creation chain written there, or a local variable holding one
// and the calls made on it before the update. ok is false when w is
// neither (a parameter, a field): then nothing is rendered.
func (x *javaFile) plusWrapperExpr(w javaRange, call int) (*plusChain, bool) {
	if c := x.plusCreation(w.s, w.e); c != nil {
		return c, true
	}
	if w.e != w.s+1 || !x.isIdent(w.s) {
		return nil, false
	}
	name := x.toks[w.s].text
	body := x.methodBlock(call)
	d := x.localDecl(name, body, call)
	if d < 0 || !x.is(d+1, "=") {
		return nil, false
	}
	end := x.exprEnd(d + 2)
	c := x.plusCreation(d+2, end)
	if c == nil {
		return nil, false
	}
	if c.class == "" && x.is(d-2, ">") && x.isIdent(d-3) && x.is(d-4, "<") {
		c.class = x.toks[d-3].text // LambdaUpdateWrapper<Sku> w = new LambdaUpdateWrapper<>()
	}
	if x.reassigned(name, body, d) {
		c.why = "the wrapper " + name + " is assigned again"
		return c, true
	}
	declBlock := x.encl[d]
	for k := end; k < x.match[body]; k++ {
		if x.toks[k].text != name || !x.isIdent(k) || x.is(k-1, ".") || k == w.s {
			continue
		}
		if k > call {
			continue
		}
		// name.m(…).m(…); a statement of its own.
		if !x.is(k+1, ".") || !x.is(k-1, ";") && !x.is(k-1, "{") && !x.is(k-1, "}") && !x.is(k-1, ")") && !x.is(k-1, "else") {
			c.why = "the wrapper " + name + " is passed on at line " + itoa(x.toks[k].line)
			return c, true
		}
		maybe := x.encl[k] != declBlock
		j := k + 1
		for x.is(j, ".") && x.isIdent(j+1) && x.is(j+2, "(") {
			close := x.match[j+2]
			c.ops = append(c.ops, plusOp{method: x.toks[j+1].text, tok: j + 1, args: x.split(j+3, close, ","), maybe: maybe})
			j = close + 1
		}
		if !x.is(j, ";") {
			c.why = "the wrapper " + name + " is used in an expression at line " + itoa(x.toks[k].line)
			return c, true
		}
		k = j
	}
	return c, true
}

// plusCreation reads tokens [s, e) as a wrapper made and chained there:
// `new LambdaUpdateWrapper<T>(…)…`, `new UpdateWrapper<T>()…`,
// `Wrappers.<T>lambdaUpdate()…`, `Wrappers.lambdaUpdate(T.class)…`; nil
// when they are not one.
func (x *javaFile) plusCreation(s, e int) *plusChain {
	c := &plusChain{}
	k := s
	switch {
	case x.is(k, "new") && (x.is(k+1, "LambdaUpdateWrapper") || x.is(k+1, "UpdateWrapper")):
		c.kind = x.toks[k+1].text
		k += 2
		if x.is(k, "<") {
			if x.isIdent(k+1) && x.is(k+2, ">") {
				c.class = x.toks[k+1].text
				k += 3
			} else if x.is(k+1, ">") {
				k += 2
			} else {
				return nil
			}
		}
	case x.is(k, "Wrappers") && x.is(k+1, "."):
		k += 2
		if x.is(k, "<") && x.isIdent(k+1) && x.is(k+2, ">") {
			c.class = x.toks[k+1].text
			k += 3
		}
		switch {
		case x.is(k, "lambdaUpdate"):
			c.kind = "LambdaUpdateWrapper"
		case x.is(k, "update"):
			c.kind = "UpdateWrapper"
		default:
			return nil
		}
		k++
	default:
		return nil
	}
	if !x.is(k, "(") {
		return nil
	}
	close := x.match[k]
	if args := x.split(k+1, close, ","); len(args) == 1 {
		a := args[0]
		if a.e == a.s+3 && x.isIdent(a.s) && x.is(a.s+1, ".") && x.is(a.s+2, "class") {
			c.class = x.toks[a.s].text
		} else {
			c.ctorArg = &a
		}
	} else if len(args) > 1 {
		return nil
	}
	k = close + 1
	for x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		cl := x.match[k+2]
		c.ops = append(c.ops, plusOp{method: x.toks[k+1].text, tok: k + 1, args: x.split(k+3, cl, ",")})
		k = cl + 1
	}
	if k != e {
		return nil
	}
	return c
}

// plusEmit renders chain, written by the update call named at token name
// (its expression starting at token start, its arguments closing at
// close), with the entity argument whose non-null properties join the SET.
func (x *javaFile) plusEmit(chain *plusChain, entity *javaRange, start, name, close int, method string) {
	if !x.claim(start, start+1) {
		return
	}
	id := x.methodAt(name)
	fr := &stmt.Fragment{
		File: x.path, Lang: stmt.LangJava, Line: x.toks[start].line, Col: x.toks[start].col,
		EndLine: x.toks[close].endLine, ID: id, Builder: "MyBatis-Plus " + chain.kind + " chain",
		Exec: &stmt.Exec{Method: method, Returns: stmt.ReturnsCount},
	}
	fr.Exec.ResultDiscarded = x.discarded(start, close)
	fr.Exec.ResultChecked = !fr.Exec.ResultDiscarded
	class := chain.class
	if class == "" && entity != nil {
		class = x.newClass(entity.s)
	}
	if class == "" && chain.ctorArg != nil {
		class = x.newClass(chain.ctorArg.s)
	}
	if class == "" {
		class = x.mapperEntity(name)
	}
	if class == "" {
		class = x.extendsServiceImpl(name)
	}
	if class == "" {
		class = x.referencedClass(chain)
	}
	if chain.why == "" && class == "" {
		chain.why = "the wrapper does not name its entity class"
	}
	if chain.why != "" {
		fr.Unchecked = "MyBatis-Plus wrapper chain not followed: " + chain.why
		x.frags = append(x.frags, fr)
		return
	}
	// A setSql or apply text held in a local assigned in several places
	// (if/else) gives one variant per value.
	variants := []map[int]javaRange{nil}
	if tok, defs := x.plusTextLocal(chain); len(defs) > 1 {
		variants = variants[:0]
		for _, d := range defs {
			variants = append(variants, map[int]javaRange{tok: {d.valStart, d.valEnd}})
		}
	}
	for i, ov := range variants {
		r := &plusRender{x: x, pe: x.entity(class), override: ov}
		sql, steps, skip := r.update(chain, entity, start)
		v := *fr
		if len(variants) > 1 {
			for _, d := range ov {
				v.Variant = " with " + x.toks[d.s-2].text + " as assigned at line " + itoa(x.toks[d.s].line)
			}
		}
		switch {
		case skip:
			continue
		case r.why != "":
			if i > 0 {
				continue
			}
			v.Unchecked = "MyBatis-Plus wrapper chain not followed: " + r.why
		default:
			v.SQL, v.Segments = sql.Segments()
			v.ParamSteps = steps
		}
		x.frags = append(x.frags, &v)
	}
}

// plusTextLocal returns the name token of the first setSql or apply text
// of the chain that is a local String, and the assignments that may give
// it its value there, when each is a whole value (no `+=`).
func (x *javaFile) plusTextLocal(chain *plusChain) (int, []*javaDef) {
	for _, op := range chain.ops {
		if op.method != "setSql" && op.method != "apply" || len(op.args) == 0 {
			continue
		}
		a := op.args[0]
		if a.e != a.s+1 || !x.isIdent(a.s) {
			continue
		}
		d := x.lookup(x.toks[a.s].text, a.s, false)
		if d == nil || d.member {
			return -1, nil
		}
		defs := x.defsAt(d, a.s)
		for _, df := range defs {
			if df.appends || x.extends(df) || !x.is(df.valStart-1, "=") {
				return -1, nil
			}
		}
		return a.s, defs
	}
	return -1, nil
}

// discarded reports whether the call expression [start, close] is a
// statement of its own, its result dropped.
func (x *javaFile) discarded(start, close int) bool {
	if !x.is(close+1, ";") {
		return false
	}
	p := start - 1
	switch {
	case x.is(p, ";") || x.is(p, "{") || x.is(p, "}") || x.is(p, "else"):
		return true
	case x.is(p, ")"):
		// if (…) mapper.update(…);
		o := x.match[p]
		return o > 0 && x.isIdent(o-1) && javaControl[x.toks[o-1].text] && x.toks[o-1].text != "return"
	}
	return false
}

// newClass is the class of `new X(…)…` starting at token s, "".
func (x *javaFile) newClass(s int) string {
	if x.is(s, "new") && x.isIdent(s+1) && (x.is(s+2, "(") || x.is(s+2, "<")) {
		return x.toks[s+1].text
	}
	return ""
}

// referencedClass is the class the chain's method references name
// (`Sku::getStock`), when they all name one.
func (x *javaFile) referencedClass(chain *plusChain) string {
	class := ""
	for _, op := range chain.ops {
		for _, a := range op.args {
			for k := a.s + 1; k+1 < a.e; k++ {
				if !x.is(k, "::") || !x.isIdent(k-1) || !x.isIdent(k+1) {
					continue
				}
				if c := x.toks[k-1].text; class == "" {
					class = c
				} else if c != class {
					return ""
				}
			}
		}
	}
	return class
}
