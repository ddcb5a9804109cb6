package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// javaTransactionalPackages are the packages of @Transactional.
var javaTransactionalPackages = []string{
	"org.springframework.transaction.annotation", "jakarta.transaction", "javax.transaction",
}

// jpaFlushes finds, in the methods of the file that run in a transaction of
// their own, the entities read through a repository and changed by a setter
// or one of their methods with no save of them in the method: the write is
// the flush at commit. It is reported at the last change.
func (x *javaFile) jpaFlushes() []stmt.MapperCall {
	if !x.importsTransactional() {
		return nil
	}
	var out []stmt.MapperCall
	for body, b := range x.blocks {
		if b.kind != javaBlockMethod || !x.transactional(body) {
			continue
		}
		end := x.match[body]
		saved := map[string]bool{}
		for j := body + 1; j+3 < end; j++ {
			if x.isIdent(j) && jpaSaves[x.toks[j].text] && x.is(j-1, ".") && x.is(j+1, "(") && x.isIdent(j+2) {
				saved[x.toks[j+2].text] = true
			}
		}
		for j := body + 1; j+2 < end; j++ {
			// Type v = repo.findById(…)…; for (Type v : repo.findAllById(…))
			if !x.isIdent(j) || !x.is(j+1, "=") && !x.is(j+1, ":") || x.encl[j] < 0 || x.methodBlock(j) != body {
				continue
			}
			name := x.toks[j].text
			if saved[name] || x.localDecl(name, body, j+1) != j {
				continue
			}
			read := x.localRead(name, body, j+1)
			if read == nil {
				continue
			}
			recv := j + 2
			if x.is(j+1, ":") && x.isIdent(recv) && x.is(recv+1, ")") {
				// over a local list: its initialiser's receiver
				if k := x.localDecl(x.toks[recv].text, body, recv); k >= 0 {
					recv = k + 2
				}
			}
			if !x.isIdent(recv) {
				continue
			}
			call := stmt.MapperCall{
				Framework: stmt.FrameworkJPAFlush, Method: "flush", HostMethod: b.name,
				Statement: "the UPDATE JPA's dirty checking sends at the commit of @Transactional " + b.name + "()",
				Advice:    JPAAdvice,
				Record:    name, Entity: x.localType(name, body, j+1), RecordRead: read,
				Sets: x.propertySets(name, body, end), RecordCalls: x.recordCalls(name, body, end),
			}
			typ := x.declaredType(x.toks[recv].text, recv)
			if !jpaRepositoryType(typ) {
				continue
			}
			if pkg, ok := x.imports[typ]; ok {
				typ = pkg + "." + typ
			}
			call.Mapper = typ
			last := 0
			for _, s := range call.Sets {
				last = max(last, s.Line)
			}
			for _, rc := range call.RecordCalls {
				last = max(last, rc.Line)
			}
			if last == 0 {
				continue // read, not changed
			}
			call.Line, call.EndLine = last, last
			call.Col = x.lineCol(last, body)
			out = append(out, call)
		}
	}
	return out
}

// lineCol returns the column of the first token on line within the block
// opened at token body.
func (x *javaFile) lineCol(line, body int) int {
	for k := body; k < x.match[body]; k++ {
		if x.toks[k].line == line {
			return x.toks[k].col
		}
	}
	return 1
}

// importsTransactional reports whether the file names a @Transactional.
func (x *javaFile) importsTransactional() bool {
	for _, p := range javaTransactionalPackages {
		if x.imports["Transactional"] == p {
			return true
		}
	}
	for _, t := range x.toks {
		if t.kind == javaAnnot && strings.HasSuffix(t.text, ".Transactional") {
			return true
		}
	}
	return false
}

// transactional reports whether the method whose body opens at token body
// runs in a read-write transaction that Spring's proxy starts: annotated
// @Transactional itself, or public in a class annotated so, and neither
// read-only nor with a propagation that may run it outside one.
func (x *javaFile) transactional(body int) bool {
	name := x.methodName(body)
	if name < 0 {
		return false
	}
	public := false
	if as := x.headerAnnotations(name, &public); len(as) > 0 {
		return x.readWrite(as[0])
	}
	if !public {
		return false
	}
	class := x.encl[body]
	if class < 0 || x.blocks[class].kind != javaBlockType {
		return false
	}
	for k := class - 1; k >= 0 && !x.is(k, ";") && !x.is(k, "}") && !x.is(k, "{"); k-- {
		if x.is(k, "class") && x.isIdent(k+1) {
			var classPublic bool
			as := x.headerAnnotations(k, &classPublic)
			return len(as) > 0 && x.readWrite(as[0])
		}
	}
	return false
}

// methodName returns the name token of the method whose body opens at
// token body, -1 when it has none guard can find.
func (x *javaFile) methodName(body int) int {
	k := body - 1
	for j := k; j >= 0 && (x.isIdent(j) || x.is(j, ".") || x.is(j, ",")); j-- {
		if x.is(j, "throws") {
			k = j - 1
			break
		}
	}
	if !x.is(k, ")") || !x.isIdent(x.match[k]-1) {
		return -1
	}
	return x.match[k] - 1
}

// headerAnnotations returns the @Transactional annotation tokens of the
// declaration whose name (or class keyword) is token k, walking back over
// its type, modifiers and annotations; public reports a public modifier.
func (x *javaFile) headerAnnotations(k int, public *bool) []int {
	var out []int
	for j := k - 1; j >= 0; j-- {
		t := x.toks[j]
		switch {
		case t.kind == javaAnnot:
			if t.text == "Transactional" || strings.HasSuffix(t.text, ".Transactional") {
				out = append(out, j)
			}
		case x.is(j, ")") && x.match[j] >= 1 && x.toks[x.match[j]-1].kind == javaAnnot:
			j = x.match[j]
		case t.kind == javaIdent:
			*public = *public || t.text == "public"
		case x.is(j, ".") || x.is(j, "<") || x.is(j, ">") || x.is(j, ",") || x.is(j, "[") || x.is(j, "]") || x.is(j, "?"):
		default:
			return out
		}
	}
	return out
}

// readWrite reports whether the @Transactional at token a starts a
// read-write transaction: no readOnly = true, no propagation other than
// REQUIRED or REQUIRES_NEW.
func (x *javaFile) readWrite(a int) bool {
	if !x.is(a+1, "(") {
		return true
	}
	for _, el := range x.split(a+2, x.match[a+1], ",") {
		if !x.isIdent(el.s) || !x.is(el.s+1, "=") {
			continue
		}
		val := x.source(el.s+2, el.e)
		switch x.toks[el.s].text {
		case "readOnly":
			if val != "false" {
				return false
			}
		case "propagation", "value":
			if !strings.HasSuffix(val, "REQUIRED") && !strings.HasSuffix(val, "REQUIRES_NEW") {
				return false
			}
		}
	}
	return true
}
