package java

import (
	"slices"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/stmt"
)

// Projects seldom call a generated mapper from the code that decides what
// to write: a service class wraps it (`LitemallCouponUserService.update(cu)
// { cu.setUpdateTime(now()); return couponUserMapper.updateByPrimaryKeySelective(cu); }`)
// and the caller reads, changes and writes through the service. The
// extractor records both halves of one file: the wrapper methods its
// classes declare (JavaType) and the service calls it makes
// (File.ServiceCalls, MapperRead.Service); lint joins them across the
// files of a run. One level only: a wrapper that calls another service
// is not a wrapper.

// JavaType is a top-level class of a Java file with what guard needs to
// resolve a call of it from another file.
type JavaType struct {
	// Name is the class's name qualified by the file's package.
	Name string
	// Implements are the interfaces it names in its implements clause,
	// qualified by the file's imports or its package.
	Implements []string
	// Wrappers are its methods that wrap one generated call.
	Wrappers []WrapperMethod
}

// WrapperMethod is a method that passes one of its parameters straight to
// a generated write, or returns what a generated read returns: one record
// or the list of a list select.
type WrapperMethod struct {
	Method string
	// Params is its number of parameters (overloads differ by it).
	Params int
	// Write is the generated write the method makes with its parameter
	// RecordParam as the record, at the top level of its body, with the
	// setters it calls on the record before (they count as the caller's)
	// and the Example it builds; nil for a read wrapper.
	Write       *stmt.MapperCall
	RecordParam int
	// Read is the generated select whose one record every return of the
	// method yields (or null), ReadMapper the select's receiver type;
	// empty for a write wrapper.
	Read, ReadMapper string
	// ReadList reports that the method returns the rows of a list select
	// (a caller's for-each loop reads its records), not one record.
	ReadList bool
	Line     int
}

// javaTypes lists the top-level classes of the file that declare wrapper
// methods or implement interfaces; sites are its generated write calls.
func (x *javaFile) javaTypes(sites []mapperSite) []JavaType {
	pkg := x.packageName()
	byBlock := map[int]*JavaType{}
	var order []int
	typeOf := func(b int) *JavaType {
		if jt := byBlock[b]; jt != nil {
			return jt
		}
		name, impls := x.classHeader(b)
		if name == "" {
			return nil
		}
		jt := &JavaType{Name: qualify(pkg, name)}
		for _, in := range impls {
			jt.Implements = append(jt.Implements, x.qualifyType(pkg, in))
		}
		byBlock[b] = jt
		order = append(order, b)
		return jt
	}
	// Write wrappers: the generated write calls whose record is a parameter.
	writes := map[int][]*stmt.MapperCall{} // by method body
	for _, s := range sites {
		if s.call.Record != "" && x.encl[s.at] == s.body {
			writes[s.body] = append(writes[s.body], s.call)
		}
	}
	for body, calls := range writes {
		cls := x.blocks[body].parent
		params := x.paramNames(body)
		if !x.topLevelClass(cls) || params == nil {
			continue
		}
		for _, c := range calls {
			k := slices.Index(params, c.Record)
			if k < 0 || x.reassigned(c.Record, body, -1) || countRecord(calls, c.Record) > 1 {
				continue
			}
			if jt := typeOf(cls); jt != nil {
				jt.Wrappers = append(jt.Wrappers, WrapperMethod{
					Method: x.blocks[body].name, Params: len(params), Write: c, RecordParam: k, Line: c.Line,
				})
			}
		}
	}
	// Read wrappers: every return yields a generated read's one record.
	reads := map[int][]int{} // return tokens by method body
	for k, t := range x.toks {
		if t.kind == javaIdent && t.text == "return" {
			if b := x.methodBlock(k); b >= 0 {
				reads[b] = append(reads[b], k)
			}
		}
	}
	for body, rets := range reads {
		cls := x.blocks[body].parent
		if !x.topLevelClass(cls) || writes[body] != nil {
			continue
		}
		params := x.paramNames(body)
		if params == nil {
			continue
		}
		method, mapper, list := "", "", false
		for _, k := range rets {
			e := x.exprEnd(k + 1)
			if e == k+2 && x.is(k+1, "null") {
				continue
			}
			m, recv := x.readExpr(k+1, e, body)
			isList := false
			if m == "" {
				m, recv = x.listExpr(k+1, e, body)
				isList = true
			}
			if m == "" || method != "" && (m != method || isList != list) {
				method = ""
				break
			}
			method, mapper, list = m, x.declaredType(x.toks[recv].text, recv), isList
		}
		if method == "" || !strings.HasSuffix(mapper, "Mapper") {
			continue
		}
		if jt := typeOf(cls); jt != nil {
			jt.Wrappers = append(jt.Wrappers, WrapperMethod{
				Method: x.blocks[body].name, Params: len(params), Read: method,
				ReadMapper: mapper, ReadList: list, Line: x.toks[body].line,
			})
		}
	}
	// Classes that implement interfaces, for the FooService → FooServiceImpl step.
	for b, blk := range x.blocks {
		if blk.kind == javaBlockType && blk.parent < 0 {
			typeOf(b)
		}
	}
	sort.Ints(order)
	var out []JavaType
	for _, b := range order {
		if jt := byBlock[b]; len(jt.Wrappers) > 0 || len(jt.Implements) > 0 {
			sort.Slice(jt.Wrappers, func(i, j int) bool { return jt.Wrappers[i].Line < jt.Wrappers[j].Line })
			out = append(out, *jt)
		}
	}
	return out
}

// topLevelClass reports whether '{' token b opens the body of a top-level class.
func (x *javaFile) topLevelClass(b int) bool {
	blk := x.blocks[b]
	return b >= 0 && blk != nil && blk.kind == javaBlockType && blk.parent < 0
}

// classHeader returns the name of the class whose body '{' token b opens
// and the interfaces its implements clause names, "" when the header is
// not `… class Name … {`.
func (x *javaFile) classHeader(b int) (string, []string) {
	name, cls := "", -1
	for k := b - 1; k >= 0 && x.encl[k] == x.encl[b]; k-- {
		if x.is(k, ";") || x.is(k, "}") || x.is(k, "{") {
			break
		}
		if x.is(k, "class") && x.isIdent(k+1) && !x.is(k-1, ".") {
			name, cls = x.toks[k+1].text, k
			break
		}
	}
	if name == "" {
		return "", nil
	}
	var impls []string
	in, depth := false, 0
	for k := cls + 2; k < b; k++ {
		switch {
		case x.is(k, "<"):
			depth++
		case x.is(k, ">"):
			depth--
		case depth > 0:
		case x.is(k, "implements"):
			in = true
		case x.is(k, "extends") || x.is(k, "permits"):
			in = false
		case in && x.isIdent(k) && !x.is(k-1, "."):
			name := x.toks[k].text // java.io.Serializable: the whole name
			for x.is(k+1, ".") && x.isIdent(k+2) {
				k += 2
				name += "." + x.toks[k].text
			}
			impls = append(impls, name)
		}
	}
	return name, impls
}

// paramNames returns the parameter names of the method whose body '{'
// token body opens (empty, not nil, for none), nil when its header cannot
// be read.
func (x *javaFile) paramNames(body int) []string {
	k := x.headEnd(body)
	if !x.is(k, ")") {
		return nil
	}
	out := []string{}
	for _, p := range x.split(x.match[k]+1, k, ",") {
		if p.e <= p.s || !x.isIdent(p.e-1) {
			return nil
		}
		out = append(out, x.toks[p.e-1].text)
	}
	return out
}

// packageName returns the file's package, "" for the default package.
func (x *javaFile) packageName() string {
	for k := 0; k < len(x.toks); k++ {
		if x.is(k, "package") && x.encl[k] < 0 {
			var parts []string
			for j := k + 1; j < len(x.toks) && !x.is(j, ";"); j++ {
				parts = append(parts, x.toks[j].text)
			}
			return strings.Join(parts, "")
		}
		if x.is(k, "import") || x.is(k, "class") || x.is(k, "interface") {
			break
		}
	}
	return ""
}

// qualifyType qualifies a simple type name by the file's imports, else by
// its package pkg; with a wildcard import the package is a guess, and the
// name stays simple for lint to match against the one class so named.
func (x *javaFile) qualifyType(pkg, name string) string {
	if strings.Contains(name, ".") {
		return name // written qualified
	}
	if p, ok := x.imports[name]; ok {
		return p + "." + name
	}
	if x.wildcard {
		return name
	}
	return qualify(pkg, name)
}

func qualify(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + "." + name
}

// serviceRead returns the read that initialises local variable name when
// it is one call of a method on a field or local whose type is not a
// mapper (`X v = couponUserService.findById(id)`), nil otherwise; lint
// decides whether the method is a read wrapper.
func (x *javaFile) serviceRead(name string, body, before int) *stmt.MapperRead {
	j := x.localDecl(name, body, before)
	if j < 0 || x.reassigned(name, body, j) || !x.is(j+1, "=") && !x.forEach(j) {
		return nil
	}
	s, e := j+2, x.exprEnd(j+2)
	list := x.forEach(j)
	if list && e == s+1 && x.isIdent(s) {
		// for (X v : rows) of a local List<X> rows = service.m(…).
		k := x.localDecl(x.toks[s].text, body, s)
		if k < 0 || !x.is(k+1, "=") || x.reassigned(x.toks[s].text, body, k) {
			return nil
		}
		s, e = k+2, x.exprEnd(k+2)
	}
	if x.is(s, "this") && x.is(s+1, ".") {
		s += 2
	}
	if e-s < 5 || !x.isIdent(s) || !x.is(s+1, ".") || !x.isIdent(s+2) || !x.is(s+3, "(") || x.match[s+3] != e-1 {
		return nil
	}
	typ := x.serviceType(x.toks[s].text, body, s)
	if typ == "" {
		return nil
	}
	return &stmt.MapperRead{
		Variable: name, Method: x.toks[s+2].text, Line: x.toks[j].line,
		Service: typ, Via: x.toks[s].text + "." + x.toks[s+2].text, Args: len(x.split(s+4, e-1, ",")), List: list,
	}
}

// recordRead returns the read a record passed at token before came from:
// a generated read, else a read through a service method, else nil.
func (x *javaFile) recordRead(name string, body, before int) *stmt.MapperRead {
	if r := x.localRead(name, body, before); r != nil {
		return r
	}
	return x.serviceRead(name, body, before)
}

// serviceType returns the qualified declared type of receiver recv when
// it may be a service class: a capitalised type that is no mapper, Example
// or Criteria; "" otherwise.
func (x *javaFile) serviceType(recv string, body, at int) string {
	typ := x.localType(recv, body, at)
	if typ == "" {
		typ = x.declaredType(recv, at)
	}
	if typ == "" || typ[0] < 'A' || typ[0] > 'Z' || hostcode.ConstantName(typ) {
		return ""
	}
	for _, suffix := range []string{"Mapper", "Example", "Criteria", "Dao", "DAO", "Repository"} {
		if strings.HasSuffix(typ, suffix) {
			return ""
		}
	}
	return x.qualifyType(x.packageName(), typ)
}

// serviceCalls finds the calls `service.method(…, record, …)` of a file
// whose record argument is a local the method read or set properties of:
// the calls that may reach a generated write through a wrapper method.
// A call yields one MapperCall per such argument.
func (x *javaFile) serviceCalls() []stmt.MapperCall {
	var out []stmt.MapperCall
	t := x.toks
	for i := 2; i+1 < len(t); i++ {
		if t[i].kind != javaIdent || !x.is(i-1, ".") || !x.is(i+1, "(") || !x.isIdent(i-2) || x.match[i+1] == i+2 {
			continue
		}
		if _, generated := mybatisxml.GeneratedCalls[t[i].text]; generated || x.is(i-3, ".") && !(x.is(i-4, "this") && !x.is(i-5, ".")) {
			continue
		}
		if m := t[i].text; strings.HasPrefix(m, "get") || strings.HasPrefix(m, "set") || strings.HasPrefix(m, "is") {
			continue
		}
		body := x.methodBlock(i)
		if body < 0 {
			continue
		}
		recv := i - 2
		var typ string
		close := x.match[i+1]
		argv := x.split(i+2, close, ",")
		for k := range argv {
			name, ok := x.singleName(argv, k)
			if !ok || name[0] < 'a' || name[0] > 'z' || name == "this" || name == "null" {
				continue
			}
			read, sets, cp := x.recordRead(name, body, recv), x.propertySets(name, body, recv), x.beanCopy(name, body, recv)
			if read == nil && len(sets) == 0 && cp == nil {
				continue
			}
			if typ == "" {
				if typ = x.serviceType(t[recv].text, body, recv); typ == "" {
					break
				}
			}
			out = append(out, stmt.MapperCall{
				Mapper: typ, Method: t[i].text, Entity: x.recordType(name, body, recv), Record: name, RecordRead: read, Sets: sets, Copy: cp,
				HostMethod: x.blocks[body].name, Line: t[recv].line, Col: t[recv].col, EndLine: t[close].endLine,
				Via: t[recv].text + "." + t[i].text, ViaArgs: len(argv), ViaRecord: k,
			})
		}
	}
	return out
}

// countRecord counts the calls that pass record.
func countRecord(calls []*stmt.MapperCall, record string) int {
	n := 0
	for _, c := range calls {
		if c.Record == record {
			n++
		}
	}
	return n
}
