package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// JPAMutation is an assignment to a field of an entity in one of its
// methods: `this.quantity -= n` in `decrease(long n)`.
type JPAMutation struct {
	Method, Field string
	// Relative reports that the new value is computed from the field
	// itself (-=, +=, `quantity = quantity - n`): from the entity's state,
	// which the caller read.
	Relative bool
	// Form is what the assigned value is made of when it is not relative.
	Form stmt.ValueForm
	// Text is the assignment's source, on one line.
	Text string
}

// mutations reads the assignments to fields the methods of the class body
// opened at token body make (constructors, named class, build new
// objects); a parameter or local of the field's name shadows it.
func (sc *jpaScan) mutations(body int, class string, fields []JPAField) []JPAMutation {
	x := sc.x
	persistent := map[string]bool{}
	for _, f := range fields {
		persistent[f.Name] = true
	}
	var out []JPAMutation
	for k := body + 1; k < x.match[body]; k++ {
		if !x.is(k, "{") {
			if x.is(k, "(") || x.is(k, "[") {
				k = x.match[k]
			}
			continue
		}
		end := x.match[k]
		if b := x.blocks[k]; b != nil && b.kind == javaBlockMethod && b.name != class && x.is(k-1, ")") {
			params := x.match[k-1]
			for j := k + 1; j < end; j++ {
				if m, ok := sc.mutation(j, params, k, persistent); ok {
					m.Method = b.name
					out = append(out, m)
				}
			}
		}
		k = end
	}
	return out
}

// mutation reads an assignment to a field at token j of the method whose
// parameter list opens at token params and whose body opens at token body.
func (sc *jpaScan) mutation(j, params, body int, persistent map[string]bool) (JPAMutation, bool) {
	x := sc.x
	name, start := "", j
	switch {
	case x.is(j, "this") && x.is(j+1, ".") && x.isIdent(j+2) && !x.is(j-1, "."):
		name, j = x.toks[j+2].text, j+2
	case x.isIdent(j) && !x.is(j-1, ".") && !x.isIdent(j-1) && !x.is(j-1, ">") && !x.is(j-1, "]"):
		name = x.toks[j].text
		if sc.declaredIn(name, params, body, j) {
			return JPAMutation{}, false
		}
	default:
		return JPAMutation{}, false
	}
	op := ""
	if j+1 < len(x.toks) {
		op = x.toks[j+1].text
	}
	if !persistent[name] || x.toks[j+1].kind != javaOp || op != "=" && op != "-=" && op != "+=" {
		return JPAMutation{}, false
	}
	vs := j + 2
	ve := x.exprEnd(vs)
	m := JPAMutation{Field: name, Text: x.describe(start, ve), Relative: op != "="}
	if !m.Relative {
		for k := vs; k < ve; k++ {
			if x.toks[k].text != name || !x.isIdent(k) || x.is(k+1, "(") {
				continue
			}
			if x.is(k-1, ".") && x.is(k-2, "this") || !x.is(k-1, ".") && !sc.declaredIn(name, params, body, k) {
				m.Relative = true
			}
		}
	}
	if !m.Relative {
		m.Form, _ = x.valueForm(vs, ve, body)
	}
	return m, true
}

// declaredIn reports whether name is a parameter of the list opening at
// token params, or a local declared in the body opening at token body
// before token j.
func (sc *jpaScan) declaredIn(name string, params, body, j int) bool {
	x := sc.x
	for k := params + 1; k < x.match[params]; k++ {
		if x.toks[k].text == name && x.isIdent(k) && (x.is(k+1, ",") || x.is(k+1, ")")) {
			return true
		}
	}
	return x.localDecl(name, body, j) >= 0
}

// recordCalls lists the calls `name.m(…)` of record name in method body
// before token before that are not setters or getters.
func (x *javaFile) recordCalls(name string, body, before int) []stmt.RecordCall {
	var out []stmt.RecordCall
	from := body + 1
	if d := x.localDecl(name, body, before); d >= 0 {
		from = d + 1
	}
	for j := from; j+3 < before; j++ {
		if x.toks[j].text != name || !x.isIdent(j) || x.is(j-1, ".") || !x.is(j+1, ".") || !x.isIdent(j+2) || !x.is(j+3, "(") {
			continue
		}
		m := x.toks[j+2].text
		accessor := false
		for _, p := range []string{"set", "get", "is"} {
			if rest, ok := strings.CutPrefix(m, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
				accessor = true
			}
		}
		if accessor {
			continue
		}
		close := x.match[j+3]
		out = append(out, stmt.RecordCall{Method: m, Text: x.describe(j, close+1), Line: x.toks[j].line})
		j = close
	}
	return out
}
