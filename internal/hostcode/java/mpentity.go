package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// MyBatis-Plus entity writes: `skuMapper.updateById(sku)` sends `UPDATE
// sku SET <every non-null property> WHERE id = ?`, with `AND version = ?`
// when the entity class has a @Version property holding a value. They
// become MapperCalls (Framework "MyBatis-Plus") with the setters the method
// calls on the entity — Lombok chain setters included — and the read the
// entity or its values came from, for the rules to judge as they judge a
// MyBatis Generator updateByPrimaryKeySelective.

// plusSet is a setter call on an entity with the token of its name.
type plusSet struct {
	stmt.PropertySet
	tok int
}

// plusRecord is what a method shows of an entity it writes.
type plusRecord struct {
	name  string // the local variable; "" for an entity made in the call
	class string
	sets  []plusSet
	read  *stmt.MapperRead
	known bool // every property the entity carries is in sets
}

// plusRecord reads the entity argument a of a write at token call: a local
// variable, or `new X().setA(…).setB(…)` written there. ok reports whether
// the entity is made in the method and every property it carries is known.
func (x *javaFile) plusRecord(a javaRange, call int) (plusRecord, bool) {
	body := x.methodBlock(call)
	rec := plusRecord{}
	if c := x.newClass(a.s); c != "" {
		rec.class = c
		sets, end := x.chainSets(a.s, body)
		rec.sets, rec.known = sets, end == a.e
		return rec, rec.known
	}
	if c := x.builderClass(a.s); c != "" {
		rec.class = c
		sets, end, built := x.builderSets(a.s, body)
		rec.sets, rec.known = sets, built && end == a.e
		return rec, rec.known
	}
	if a.e != a.s+1 || !x.isIdent(a.s) || body < 0 {
		return rec, false
	}
	name := x.toks[a.s].text
	rec.name = name
	rec.class = x.recordType(name, body, call)
	d := x.localDecl(name, body, call)
	from := body + 1
	if p := x.lambdaParam(name, call); d < 0 && p >= 0 {
		from = p + 1 // the element the lambda is given: its setters are the lambda's
	}
	if d >= 0 {
		from = d + 1
		if x.is(d+1, "=") && !x.reassigned(name, body, d) {
			end := x.exprEnd(d + 2)
			if c := x.newClass(d + 2); c != "" {
				sets, e := x.chainSets(d+2, body)
				rec.sets, rec.known = sets, e == end
				if rec.class == "" || rec.class == "var" {
					rec.class = c
				}
			} else if c := x.builderClass(d + 2); c != "" {
				sets, e, built := x.builderSets(d+2, body)
				rec.sets, rec.known = sets, built && e == end
				if rec.class == "" || rec.class == "var" {
					rec.class = c
				}
			} else {
				rec.read = x.localRead(name, body, call)
			}
			from = end
		}
	}
	// name.setA(…).setB(…); statements before the call.
	for j := from; j < call; j++ {
		if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") {
			continue
		}
		if !x.is(j+1, ".") || !x.isSetter(j+2) {
			rec.known = false // passed on, or read: it may change elsewhere
			continue
		}
		sets, end := x.chainSets(j, body)
		rec.sets = append(rec.sets, sets...)
		j = end - 1
	}
	return rec, rec.known
}

// isSetter reports whether token k names a setter called there: setX(.
func (x *javaFile) isSetter(k int) bool {
	if !x.isIdent(k) || !x.is(k+1, "(") {
		return false
	}
	s := x.toks[k].text
	return len(s) > 3 && strings.HasPrefix(s, "set") && s[3] >= 'A' && s[3] <= 'Z'
}

// chainSets reads the setters chained on the expression starting at token
// s (`new X()` or a name): `.setA(…).setB(…)`, and returns the token after
// the last one.
func (x *javaFile) chainSets(s, body int) ([]plusSet, int) {
	k := s + 1
	if x.is(s, "new") {
		k = s + 2
		if x.is(k, "<") {
			for k < len(x.toks) && !x.is(k, ">") {
				k++
			}
			k++
		}
		if !x.is(k, "(") {
			return nil, k
		}
		k = x.match[k] + 1
	}
	var out []plusSet
	for x.is(k, ".") && x.isSetter(k+1) {
		setter := x.toks[k+1].text
		close := x.match[k+2]
		ps := stmt.PropertySet{Property: strings.ToLower(setter[3:4]) + setter[4:], Text: x.describe(k+3, close), Line: x.toks[k+1].line}
		ps.Form, ps.Read = x.valueForm(k+3, close, body)
		if !x.is(s, "new") {
			ps.Optional = x.presenceChecked(s, k+3, close)
			ps.Consulted = x.consults(&stmt.MapperRead{Variable: x.toks[s].text}, []string{ps.Property}, body, s)
		}
		ps.CopiesRead = x.copiesRead(ps, k+2, close)
		out = append(out, plusSet{PropertySet: ps, tok: k + 1})
		k = close + 1
	}
	return out, k
}

// plusEntityWrites finds the updateById (and IService saveOrUpdate) calls
// of the file.
func (x *javaFile) plusEntityWrites() []stmt.MapperCall {
	var out []stmt.MapperCall
	for i := 1; i+1 < len(x.toks); i++ {
		m := x.toks[i].text
		if x.toks[i].kind != javaIdent || m != "updateById" && m != "saveOrUpdate" || !x.is(i+1, "(") {
			continue
		}
		body := x.methodBlock(i)
		if body < 0 || x.declaresMethod(i) {
			continue
		}
		close := x.match[i+1]
		args := x.split(i+2, close, ",")
		if len(args) != 1 {
			continue
		}
		rec, _ := x.plusRecord(args[0], i)
		if rec.class == "" || m == "saveOrUpdate" && rec.read == nil {
			continue // saveOrUpdate of an entity not read may well insert it
		}
		pe := x.entity(rec.class)
		recvType, ok := x.plusReceiver(i, pe)
		if !ok || m == "saveOrUpdate" && strings.HasSuffix(recvType, "Mapper") {
			continue
		}
		start := x.callStart(i)
		call := stmt.MapperCall{
			Mapper: recvType, Method: m, Entity: rec.class, Record: rec.name, RecordRead: rec.read,
			HostMethod: x.blocks[body].name, Framework: "MyBatis-Plus", Table: pe.table, Advice: plusAdvice, Result: plusResult(recvType, m),
			Line: x.toks[start].line, Col: x.toks[start].col, EndLine: x.toks[close].endLine,
			Columns: map[string]string{}, ResultDiscarded: x.discarded(start, close),
			Copy: x.beanCopy(rec.name, body, i),
		}
		versionFromRead, versionSet := false, false
		var key plusSet
		var written []string
		for _, s := range rec.sets {
			if pe.decl != nil && s.Property == pe.decl.Version && s.Text == "null" {
				versionSet = true // setVersion(null): the interceptor compares nothing
			}
			if !pe.isColumn(s.Property) || s.Text == "null" {
				continue
			}
			call.Sets = append(call.Sets, s.PropertySet)
			call.Columns[s.Property] = pe.column(s.Property)
			if pe.decl != nil && s.Property == pe.decl.Version {
				versionSet, versionFromRead = true, s.Form == stmt.ValueFromRead
			}
			if strings.EqualFold(pe.column(s.Property), pe.keyColumn()) {
				key = s
			} else {
				written = append(written, s.Property)
			}
		}
		if call.RecordRead == nil && key.tok > 0 {
			// A new entity naming the row read: a write after a read
			// when the method (or the helper that read) looked at a
			// property it now writes — a check, then an act.
			if r := x.keyRead(key, args[0].s, body); r != nil && x.consults(r, written, body, i) {
				call.RecordRead = r
			}
		}
		if pe.decl != nil && pe.decl.Version != "" {
			call.VersionCAS = versionFromRead || !versionSet && rec.read != nil
		}
		out = append(out, call)
	}
	return out
}

// plusReceiver returns the type an updateById at token i is called on,
// qualified by the file's import, and whether it is a MyBatis-Plus mapper
// or service: a receiver whose type (or name) says Mapper; one that says
// Service, when the entity class is a known entity (a service of the
// project's own may have an updateById of its own); or the class itself
// when it extends ServiceImpl.
func (x *javaFile) plusReceiver(i int, pe plusEntity) (string, bool) {
	if !x.is(i-1, ".") || x.is(i-2, "this") {
		if x.extendsServiceImpl(i) == "" {
			return "", false
		}
		return x.enclosingClass(i), true
	}
	if !x.isIdent(i - 2) {
		return "", false
	}
	name := x.toks[i-2].text
	typ := x.localType(name, x.methodBlock(i), i-2)
	if typ == "" {
		typ = x.declaredType(name, i-2)
	}
	lower := strings.ToLower(typ)
	if typ == "" {
		lower = strings.ToLower(name)
	}
	switch {
	case strings.HasSuffix(lower, "mapper"):
	case (strings.HasSuffix(lower, "service") || strings.HasSuffix(lower, "serviceimpl")) && pe.decl != nil:
	default:
		return "", false
	}
	if typ == "" {
		typ = name
	}
	if pkg, ok := x.imports[typ]; ok {
		typ = pkg + "." + typ
	}
	return typ, true
}

// enclosingClass names the innermost class holding token i.
func (x *javaFile) enclosingClass(i int) string {
	for b := x.encl[i]; b >= 0; b = x.blocks[b].parent {
		if x.blocks[b].kind != javaBlockType {
			continue
		}
		for k := b - 1; k >= 0 && !x.is(k, ";") && !x.is(k, "}"); k-- {
			if x.is(k, "class") && x.isIdent(k+1) {
				return x.toks[k+1].text
			}
		}
	}
	return ""
}

// keyRead is the read a write's key setter names: `setId(order.getId())`
// of an entity read in the method, or `setId(id)` when the method read the
// row by that same id (`X old = mapper.selectById(id)`) before token
// before. The write then follows a read of its row.
func (x *javaFile) keyRead(s plusSet, before, body int) *stmt.MapperRead {
	if s.Form == stmt.ValueFromRead {
		return s.Read
	}
	k := s.tok + 2 // the argument
	if !x.isIdent(k) || !x.is(k+1, ")") {
		return nil
	}
	id := x.toks[k].text
	for j := body + 1; j < before; j++ {
		if x.toks[j].text != id || !x.isIdent(j) || x.is(j-1, ".") || x.is(j+1, ".") {
			continue
		}
		o := x.opener[j]
		if o < 1 || !x.is(o, "(") || !x.isIdent(o-1) {
			continue
		}
		cs := x.callStart(o - 1)
		if !x.is(cs-1, "=") || !x.isIdent(cs-2) || x.match[o]+1 != x.exprEnd(cs) {
			continue
		}
		if r := x.localRead(x.toks[cs-2].text, body, cs); r != nil {
			return r
		}
	}
	return nil
}

// plusReadCall returns the MyBatis-Plus read that tokens [s, e) are
// exactly: `mapper.selectById(…)`/`selectOne(…)`, `service.getById(…)`/
// `getOne(…)`, a bare or this. getById in a ServiceImpl, or a method of the
// file that returns such a read (`validateOrderExists(id)`); "" otherwise.
func (x *javaFile) plusReadCall(s, e int) string {
	k := s
	recv := ""
	if x.isIdent(k) && x.is(k+1, ".") {
		recv = strings.ToLower(x.toks[k].text)
		k += 2
	}
	if !x.isIdent(k) || !x.is(k+1, "(") || x.match[k+1] != e-1 {
		return ""
	}
	m := x.toks[k].text
	switch {
	case recv != "" && recv != "this" && strings.HasSuffix(recv, "mapper"):
		if m == "selectById" || m == "selectOne" {
			return m
		}
	case recv != "" && recv != "this" && (strings.HasSuffix(recv, "service") || strings.HasSuffix(recv, "serviceimpl")):
		if m == "getById" || m == "getOne" {
			return m
		}
	case recv == "" || recv == "this":
		if (m == "getById" || m == "getOne") && x.extendsServiceImpl(k) != "" {
			return m
		}
		if recv == "" && x.declaresMethod(k) {
			return ""
		}
		return x.plusReadHelper(m)
	}
	return ""
}

// plusReadHelper returns the read a method of the file named m returns:
// every return of its one declaration returns a local read through a
// mapper; "" when it does not (or the file declares m more than once).
func (x *javaFile) plusReadHelper(m string) string {
	if r, ok := x.readHelpers[m]; ok {
		return r
	}
	if x.readHelpers == nil {
		x.readHelpers = map[string]string{}
	}
	x.readHelpers[m] = "" // a helper that reaches itself reads nothing
	body := -1
	for b, blk := range x.blocks {
		if blk.kind == javaBlockMethod && blk.name == m {
			if body >= 0 {
				return ""
			}
			body = b
		}
	}
	if body < 0 {
		return ""
	}
	via := ""
	for k := body + 1; k < x.match[body]; k++ {
		if !x.is(k, "return") || x.methodBlock(k) != body {
			continue
		}
		if !x.isIdent(k+1) || !x.is(k+2, ";") {
			return ""
		}
		r := x.localRead(x.toks[k+1].text, body, k)
		if r == nil || via != "" && via != r.Method {
			return ""
		}
		via = r.Method
	}
	if via != "" {
		x.readHelpers[m] = m
	}
	return x.readHelpers[m]
}

// consults reports whether the method at body, before token before, calls
// a getter of one of props on the object r read (`if (order.getStatus() !=
// …)`), or the helper of the file r was read through calls one on any
// object.
func (x *javaFile) consults(r *stmt.MapperRead, props []string, body, before int) bool {
	getters := map[string]bool{}
	for _, p := range props {
		g := strings.ToUpper(p[:1]) + p[1:]
		getters["get"+g], getters["is"+g] = true, true
	}
	for k := body + 1; k+2 < before; k++ {
		if x.is(k, r.Variable) && !x.is(k-1, ".") && x.is(k+1, ".") && getters[x.toks[k+2].text] && !x.nullTest(k, k+3) {
			return true
		}
	}
	if x.readHelpers[r.Method] == "" {
		return false
	}
	for b, blk := range x.blocks {
		if blk.kind != javaBlockMethod || blk.name != r.Method {
			continue
		}
		for k := b + 1; k < x.match[b]; k++ {
			if x.is(k, ".") && getters[x.toks[k+1].text] && x.is(k+2, "(") {
				return true
			}
		}
	}
	return false
}

// nullTest reports whether the getter call starting at token s, whose '('
// is token open, is only tested for presence (`o.getStatus() == null`,
// `Objects.isNull(o.getStatus())`): filling a default in is no test of the
// value it replaces.
func (x *javaFile) nullTest(s, open int) bool {
	if !x.is(open, "(") {
		return false
	}
	e := x.match[open] + 1
	if (x.is(e, "==") || x.is(e, "!=")) && x.is(e+1, "null") || x.is(s-1, "==") && x.is(s-2, "null") || x.is(s-1, "!=") && x.is(s-2, "null") {
		return true
	}
	if x.is(s-1, "(") && x.is(e, ")") && x.isIdent(s-2) {
		switch x.toks[s-2].text {
		case "isNull", "nonNull", "isEmpty", "isNotEmpty", "isBlank", "isNotBlank", "hasText", "hasLength":
			return true
		}
	}
	return false
}

// plusAdvice is the fix of a finding at a MyBatis-Plus entity write.
var plusAdvice = &stmt.Advice{
	Via: "a mapper method of its own (`@Update`) or an UpdateWrapper chain",
	CAS: "put @Version on the entity's %[1]s field and write the entity read (the optimistic-lock interceptor adds `%[1]s = ?`)",
}

// plusResult names method m of a receiver of type recv as a fix names it:
// a BaseMapper's returns an int, an IService's a boolean.
func plusResult(recv, m string) string {
	if strings.HasSuffix(recv, "Mapper") {
		return "BaseMapper." + m
	}
	return "IService." + m
}
