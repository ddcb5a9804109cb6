package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/stmt"
)

// mapperSite is a generated mapper write call with the token of its
// method name and the '{' of the method body that makes it.
type mapperSite struct {
	call     *stmt.MapperCall
	at, body int
}

// mapperCalls finds the generated mapper write calls of a Java file.
func (x *javaFile) mapperCalls() []mapperSite {
	var out []mapperSite
	for i := 2; i+1 < len(x.toks); i++ {
		if call, body := x.mapperCall(i); call != nil {
			out = append(out, mapperSite{call, i, body})
		}
	}
	return out
}

// mapperCall reads the generated mapper write call whose method name is
// token i, with the '{' of the method body that makes it; nil when token i
// is none.
func (x *javaFile) mapperCall(i int) (*stmt.MapperCall, int) {
	t := x.toks
	args, ok := mybatisxml.GeneratedCalls[t[i].text]
	if !ok || t[i].kind != javaIdent || !x.is(i-1, ".") || !x.is(i+1, "(") || !x.isIdent(i-2) {
		return nil, -1
	}
	body := x.methodBlock(i)
	if body < 0 {
		return nil, -1
	}
	recv := i - 2
	mapperType := x.localType(t[recv].text, body, recv)
	if mapperType == "" {
		mapperType = x.declaredType(t[recv].text, recv)
	}
	if !strings.HasSuffix(mapperType, "Mapper") {
		return nil, -1
	}
	if pkg, ok := x.imports[mapperType]; ok {
		mapperType = pkg + "." + mapperType
	}
	close := x.match[i+1]
	argv := x.split(i+2, close, ",")
	call := &stmt.MapperCall{
		Mapper: mapperType, Method: t[i].text, HostMethod: x.blocks[body].name,
		Line: t[recv].line, Col: t[recv].col, EndLine: t[close].endLine,
	}
	if args[0] >= 0 {
		name, ok := x.singleName(argv, args[0])
		if !ok {
			return nil, -1
		}
		call.Record = name
		call.Entity = x.recordType(name, body, recv)
		call.RecordRead = x.recordRead(name, body, recv)
		call.Sets = x.propertySets(name, body, recv)
		call.Copy = x.beanCopy(name, body, recv)
	}
	if args[1] >= 0 {
		if name, ok := x.singleName(argv, args[1]); ok {
			call.Criteria, call.CriteriaKnown = x.exampleCriteria(name, body, i)
		}
	}
	return call, body
}

// singleName returns argument k when it is one plain name.
func (x *javaFile) singleName(argv []javaRange, k int) (string, bool) {
	if k >= len(argv) || argv[k].e != argv[k].s+1 || !x.isIdent(argv[k].s) {
		return "", false
	}
	return x.toks[argv[k].s].text, true
}

// javaNotType are the words that may stand before a name without declaring it.
var javaNotType = map[string]bool{"return": true, "new": true, "else": true, "case": true, "throw": true, "yield": true}

// localDecl returns the name token of the one declaration `Type name …` of
// a local variable in method body, before token before, or -1 when there is
// none or several (two blocks reusing a name: guard does not pick).
func (x *javaFile) localDecl(name string, body, before int) int {
	found := -1
	for j := body + 1; j < before; j++ {
		if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") {
			continue
		}
		if !x.is(j+1, "=") && !x.is(j+1, ";") && !x.is(j+1, ":") {
			continue
		}
		if !x.isIdent(j-1) && !x.is(j-1, ">") && !x.is(j-1, "]") {
			continue
		}
		if x.isIdent(j-1) && javaNotType[x.toks[j-1].text] {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = j
	}
	return found
}

// localType is the simple type a local variable is declared with, "" when
// the method does not declare it (or declares it with var).
func (x *javaFile) localType(name string, body, before int) string {
	j := x.localDecl(name, body, before)
	if j < 0 || !x.isIdent(j-1) || x.toks[j-1].text == "var" {
		return ""
	}
	return x.toks[j-1].text
}

// reassigned reports whether name is assigned in method body other than by
// its declaration at decl: its value then depends on the path taken.
func (x *javaFile) reassigned(name string, body, decl int) bool {
	for j := body + 1; j < x.match[body]; j++ {
		if j != decl && x.toks[j].text == name && x.isIdent(j) && !x.is(j-1, ".") && x.is(j+1, "=") {
			return true
		}
	}
	return false
}

// localRead returns the mapper read that initialises local variable name —
// `X v = mapper.selectByPrimaryKey(…)`, `X v = mapper.selectByExample(…).get(0)`,
// or `X v = list.get(0)` of a list so read — or nil.
func (x *javaFile) localRead(name string, body, before int) *stmt.MapperRead {
	j := x.localDecl(name, body, before)
	if j < 0 || x.reassigned(name, body, j) {
		return nil
	}
	if x.forEach(j) {
		if m, _ := x.listExpr(j+2, x.exprEnd(j+2), body); m != "" {
			return &stmt.MapperRead{Variable: name, Method: m, Line: x.toks[j].line}
		}
		return x.loopRead(name, j, body)
	}
	if !x.is(j+1, "=") {
		return nil
	}
	if m := x.frameworkRead(j, j+2, x.exprEnd(j+2)); m != "" {
		return &stmt.MapperRead{Variable: name, Method: m, Line: x.toks[j].line}
	}
	if m, _ := x.readExpr(j+2, x.exprEnd(j+2), body); m != "" {
		return &stmt.MapperRead{Variable: name, Method: m, Line: x.toks[j].line}
	}
	return nil
}

// selectCall returns the generated select method when tokens [s, e) are
// exactly `recv.selectByPrimaryKey(…)`, `recv.selectOneByExample[WithBLOBs](…)`
// or `recv.selectByExample[WithBLOBs](…)` on a receiver whose name says it
// is a mapper, else "".
func (x *javaFile) selectCall(s, e int) string {
	if m := x.plusReadCall(s, e); m != "" {
		return m
	}
	if x.is(s, "this") && x.is(s+1, ".") {
		s += 2 // this.skuMapper.selectByPrimaryKey(id): the field itself
	}
	if e-s < 5 || !x.isIdent(s) || !x.is(s+1, ".") || !x.isIdent(s+2) || !x.is(s+3, "(") || x.match[s+3] != e-1 {
		return ""
	}
	if !strings.HasSuffix(strings.ToLower(x.toks[s].text), "mapper") {
		return ""
	}
	switch m := x.toks[s+2].text; m {
	case "selectByPrimaryKey", "selectByExample", "selectByExampleWithBLOBs", "selectOneByExample", "selectOneByExampleWithBLOBs":
		return m
	}
	return ""
}

// propertySets lists the setter calls `name.setX(…);` in method body before
// token before, classifying each argument.
func (x *javaFile) propertySets(name string, body, before int) []stmt.PropertySet {
	var out []stmt.PropertySet
	from := body + 1
	if d := x.localDecl(name, body, before); d >= 0 {
		from = d + 1 // a same-named variable of an earlier block is another object
	}
	for j := from; j+3 < before; j++ {
		if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") || !x.is(j+1, ".") || !x.is(j+3, "(") {
			continue
		}
		setter := x.toks[j+2].text
		if len(setter) <= 3 || !strings.HasPrefix(setter, "set") || setter[3] < 'A' || setter[3] > 'Z' {
			continue
		}
		close := x.match[j+3]
		ps := stmt.PropertySet{Property: strings.ToLower(setter[3:4]) + setter[4:], Text: x.describe(j+4, close), Line: x.toks[j].line}
		ps.Form, ps.Read = x.valueForm(j+4, close, body)
		ps.Optional = x.presenceChecked(j, j+4, close)
		ps.Consulted = x.consults(&stmt.MapperRead{Variable: name}, []string{ps.Property}, body, j)
		ps.CopiesRead = x.copiesRead(ps, j+3, close)
		out = append(out, ps)
		j = close
	}
	return out
}

// valueForm classifies the argument tokens [s, e) of a setter.
func (x *javaFile) valueForm(s, e, body int) (stmt.ValueForm, *stmt.MapperRead) {
	if s >= e {
		return stmt.ValueOther, nil
	}
	literal := true
	var via *stmt.MapperRead // a read through a service method, kept when no mapper read is found
	for k := s; k < e; k++ {
		tok := x.toks[k]
		// v.getX(): a getter of an object read in the method.
		if tok.kind == javaIdent && !x.is(k-1, ".") && x.is(k+1, ".") && x.isIdent(k+2) && strings.HasPrefix(x.toks[k+2].text, "get") && x.is(k+3, "(") {
			if r := x.localRead(tok.text, body, k); r != nil {
				return stmt.ValueFromRead, r
			}
			if via == nil {
				via = x.serviceRead(tok.text, body, k)
			}
		}
		switch tok.kind {
		case javaNumber, javaString, javaCharLit:
		case javaOp:
			if tok.text != "-" && tok.text != "." && tok.text != "(" && tok.text != ")" {
				literal = false
			}
		case javaIdent:
			if !hostcode.ConstantName(tok.text) && !(x.is(k+1, ".") && tok.text[0] >= 'A' && tok.text[0] <= 'Z') && !(x.is(k-1, ".") && hostcode.ConstantName(tok.text)) {
				literal = false
			}
		default:
			literal = false
		}
	}
	if via != nil {
		return stmt.ValueFromRead, via
	}
	if literal {
		return stmt.ValueLiteral, nil
	}
	return stmt.ValueOther, nil
}

// exampleCriteria reads what a local Example was given before the call at
// token call: known is true only when it is made there with `new` and every
// use of it (and of a Criteria taken from it) is a criteria chain, an
// order-by or distinct setter, or the call itself.
func (x *javaFile) exampleCriteria(name string, body, call int) (crit []stmt.Criterion, known bool) {
	j := x.localDecl(name, body, call)
	if j < 0 || !x.is(j+1, "=") || !x.is(j+2, "new") || x.reassigned(name, body, j) {
		return nil, false
	}
	for k := body + 1; k < x.match[body]; k++ {
		if k == j || x.toks[k].text != name || !x.isIdent(k) || x.is(k-1, ".") {
			continue
		}
		if k > call {
			continue // the call's own argument, or a use after it
		}
		if !x.is(k+1, ".") || !x.isIdent(k+2) || !x.is(k+3, "(") {
			return nil, false
		}
		switch x.toks[k+2].text {
		case "setOrderByClause", "setDistinct":
			continue
		case "createCriteria", "or":
			if x.is(k+3, "(") && x.match[k+3] == k+4 {
				c, ok := x.criteriaChain(k+5, body, call)
				if !ok {
					return nil, false
				}
				crit = append(crit, c...)
				continue
			}
		}
		return nil, false
	}
	return crit, true
}

// criteriaChain reads the `.andXEqualTo(…)…` calls after createCriteria()
// ending at token k, and, when that Criteria is kept in a local
// (`Criteria c = example.createCriteria();`), the chains on that local.
func (x *javaFile) criteriaChain(k, body, call int) ([]stmt.Criterion, bool) {
	var out []stmt.Criterion
	for x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		c, ok := mybatisxml.ExampleCriterion(x.toks[k+1].text)
		if !ok {
			c, ok = x.namedCriterion(k + 1)
		}
		if !ok {
			return nil, false
		}
		out = append(out, c)
		k = x.match[k+2] + 1
	}
	if x.is(k, ";") || x.is(k, ")") {
		// A statement of its own, or the argument of a method guard does
		// not follow; the latter returns the Criteria only.
		if x.is(k, ")") {
			return nil, false
		}
		// Criteria c = example.createCriteria();
		start := x.exprStartOf(k)
		if start >= 2 && x.is(start-1, "=") && x.isIdent(start-2) {
			crit := x.toks[start-2].text
			for u := start; u < call; u++ {
				if x.toks[u].text != crit || !x.isIdent(u) || x.is(u-1, ".") {
					continue
				}
				if !x.is(u+1, ".") {
					return nil, false
				}
				more, ok := x.criteriaChain(u+1, body, call)
				if !ok {
					return nil, false
				}
				out = append(out, more...)
			}
		}
		return out, true
	}
	return nil, false
}

// exprStartOf returns the first token of the statement that ends at the ';'
// token k, within its block.
func (x *javaFile) exprStartOf(k int) int {
	j := k - 1
	for j >= 0 {
		if x.is(j, ")") || x.is(j, "]") {
			j = x.match[j] - 1
			continue
		}
		if x.is(j, ";") || x.is(j, "{") || x.is(j, "}") {
			return j + 1
		}
		if x.is(j, "=") {
			return j + 1
		}
		j--
	}
	return 0
}

// namedCriterion reads the criterion whose method is token m when it names
// its property in a string, as tk.mybatis's Example.Criteria does:
// andEqualTo("status", 1) is Property "status", Op "EqualTo".
func (x *javaFile) namedCriterion(m int) (stmt.Criterion, bool) {
	op, ok := strings.CutPrefix(x.toks[m].text, "and")
	if !ok || !mybatisxml.CriterionOp(op) || x.toks[m+2].kind != javaString || !x.is(m+3, ",") && !x.is(m+3, ")") {
		return stmt.Criterion{}, false
	}
	prop := x.toks[m+2].literal().String()
	if prop == "" || strings.ContainsAny(prop, " =<>()") {
		return stmt.Criterion{}, false // a condition, not a property
	}
	return stmt.Criterion{Property: prop, Op: op}, true
}
