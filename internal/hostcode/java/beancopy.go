package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// Copies of a request object's properties into the record a write sends:
// `BeanUtils.copyProperties(param, product)` (Spring, Hutool; Apache
// Commons names the target first), `Order o = modelMapper.map(dto,
// Order.class)`, `BeanUtil.toBean(dto, Order.class)`, a MapStruct
// converter (`OrderConvert.INSTANCE.toEntity(dto)`, an injected
// `orderConverter.convert(dto)`). The record then carries every property
// of the source's class: the driver reads them once every file is known.

// beanCopy returns the copy into local record name of method body before
// token before, nil when the method makes none.
func (x *javaFile) beanCopy(name string, body, before int) *stmt.BeanCopy {
	if name == "" || body < 0 {
		return nil
	}
	from := body + 1
	if d := x.localDecl(name, body, before); d >= 0 {
		from = d + 1
		if x.is(d+1, "=") {
			if c := x.copyMaking(d+2, x.exprEnd(d+2), body); c != nil {
				return c
			}
		}
	}
	for j := from; j < before; j++ {
		if x.toks[j].text == name && x.isIdent(j) && !x.is(j-1, ".") {
			if c := x.copyInto(j, body); c != nil {
				return c
			}
		}
	}
	return nil
}

// copyInto reads the copy whose target is the argument at token j:
// `copyProperties(src, j)` (`copyProperties(j, src)` of Apache Commons
// BeanUtils or PropertyUtils) or `modelMapper.map(src, j)`.
func (x *javaFile) copyInto(j, body int) *stmt.BeanCopy {
	o := x.opener[j]
	if o < 3 || !x.is(o, "(") || !x.isIdent(o-1) || !x.is(o-2, ".") || !x.isIdent(o-3) {
		return nil
	}
	args := x.split(o+1, x.match[o], ",")
	target := -1
	for k, a := range args {
		if a.s == j && a.e == j+1 {
			target = k
		}
	}
	recv, m := x.toks[o-3].text, x.toks[o-1].text
	src := -1
	switch {
	case m == "copyProperties" && len(args) >= 2:
		want := 1 // Spring's and Hutool's copyProperties(source, target)
		if strings.HasPrefix(x.imports[recv], "org.apache.commons.beanutils") {
			want = 0 // Apache's copyProperties(dest, orig)
		}
		if target != want {
			return nil
		}
		src = 1 - want
	case m == "map" && len(args) == 2 && target == 1 && x.mapperObject(recv, body, o-3):
		src = 0
	default:
		return nil
	}
	c := x.copySource(args[src], body, o-3, recv+"."+m)
	if c != nil && m == "copyProperties" {
		for _, a := range args[2:] {
			if a.e == a.s+1 && x.toks[a.s].kind == javaString {
				c.Ignored = append(c.Ignored, strings.Trim(x.toks[a.s].text, `"`))
			}
		}
	}
	return c
}

// copyMaking reads the copy that tokens [s, e) are, when they make the
// record: a call `recv.m(src, X.class)` (ModelMapper's map, Hutool's
// toBean and copyProperties, Orika's map), or a call of one argument on a
// MapStruct converter.
func (x *javaFile) copyMaking(s, e, body int) *stmt.BeanCopy {
	if !x.isIdent(s) || !x.is(s+1, ".") {
		return nil
	}
	k := s + 2
	if x.is(k, "INSTANCE") && x.is(k+1, ".") {
		k += 2 // OrderConvert.INSTANCE.toEntity(dto)
	}
	if !x.isIdent(k) || !x.is(k+1, "(") || x.match[k+1] != e-1 {
		return nil
	}
	recv, m := x.toks[s].text, x.toks[k].text
	args := x.split(k+2, e-1, ",")
	switch {
	case len(args) == 2 && args[1].e == args[1].s+3 && x.is(args[1].s+1, ".") && x.is(args[1].s+2, "class"):
		return x.copySource(args[0], body, s, recv+"."+m)
	case len(args) == 1 && (k == s+4 || x.converter(recv, body, s)):
		return x.copySource(args[0], body, s, recv+"."+m)
	}
	return nil
}

// copySource describes the copy from argument a: a plain name whose type
// the method or its class declares, not a record the method read.
func (x *javaFile) copySource(a javaRange, body, at int, via string) *stmt.BeanCopy {
	if a.e != a.s+1 || !x.isIdent(a.s) {
		return nil
	}
	name := x.toks[a.s].text
	if x.localRead(name, body, at) != nil {
		return nil // a copy of the row read writes back what it read, as setX(old.getX()) does
	}
	class := x.recordType(name, body, at)
	if class == "" || class[0] < 'A' || class[0] > 'Z' {
		return nil
	}
	return &stmt.BeanCopy{Class: class, Package: x.imports[class], Source: name, Via: via, Line: x.toks[at].line}
}

// mapperObject reports whether recv, at token at, is an object mapper
// (ModelMapper, Orika's MapperFacade, Dozer's Mapper) by its type or name.
func (x *javaFile) mapperObject(recv string, body, at int) bool {
	t := x.recordType(recv, body, at)
	switch t {
	case "ModelMapper", "MapperFacade", "DozerBeanMapper", "Mapper":
		return t != "Mapper" || strings.Contains(x.imports["Mapper"], "dozer")
	}
	return t == "" && (recv == "modelMapper" || recv == "mapperFacade" || recv == "dozerMapper")
}

// converter reports whether recv, at token at, is a MapStruct converter:
// its type (or, undeclared, its name) ends in Convert, Converter,
// Assembler or MapStruct.
func (x *javaFile) converter(recv string, body, at int) bool {
	t := x.recordType(recv, body, at)
	if t == "" {
		t = recv
	}
	for _, suffix := range []string{"Convert", "Converter", "Assembler", "MapStruct", "Convertor"} {
		if strings.HasSuffix(t, suffix) {
			return true
		}
	}
	return false
}
