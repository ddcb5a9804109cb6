package java

import (
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/hostcode"
)

// javaMaxDepth bounds the nesting of parentheses and constant references an
// expression is followed through; deeper ones count as not known.
const javaMaxDepth = 64

// javaEval is what is known of a string expression: operands joined by '+'.
type javaEval struct {
	text Text // the operands known here, with their file positions
	// prefix is the length of text before the first operand not known here.
	prefix int
	// dynamic describes the operands not known here, in order.
	dynamic []string
	// via names the formatting call when the expression is one, e.g. "String.format".
	via string
	// stringy is set when a string literal or a String declaration takes part:
	// the expression is a string, not a connection or a lambda.
	stringy bool
	refs    []*javaDecl // declarations read directly
	whole   *javaDecl   // the expression is exactly a reference to this declaration
	// operands counts the operands joined by '+'.
	operands int
	// foreign counts the dynamic operands that are constants of other files
	// by their CONSTANT_CASE names: known when compiled, just not here.
	foreign int
}

// known reports whether every operand is known here.
func (ev *javaEval) known() bool { return len(ev.dynamic) == 0 }

// prefixText returns what is known of the start of the string.
func (ev *javaEval) prefixText() Text {
	if ev.known() {
		return ev.text
	}
	return ev.text[:ev.prefix]
}

// addDynamic records an operand known only at run time.
func (ev *javaEval) addDynamic(desc string) {
	if len(ev.dynamic) == 0 {
		ev.prefix = len(ev.text)
	}
	ev.dynamic = append(ev.dynamic, desc)
}

// merge appends sub, an operand's own evaluation.
func (ev *javaEval) merge(sub *javaEval) {
	ev.stringy = ev.stringy || sub.stringy
	ev.refs = append(ev.refs, sub.refs...)
	if ev.via == "" {
		ev.via = sub.via
	}
	ev.text = append(ev.text, sub.prefixText()...)
	for _, d := range sub.dynamic {
		ev.addDynamic(d)
	}
	ev.foreign += sub.foreign
	if !sub.known() {
		ev.text = append(ev.text, sub.text[sub.prefix:]...)
	}
}

// reason says why the expression cannot be checked.
func (ev *javaEval) reason() string {
	if ev.foreign == len(ev.dynamic) {
		return "SQL uses constants not defined in this file: " + strings.Join(ev.dynamic, ", ")
	}
	if ev.via != "" && len(ev.dynamic) == 1 {
		return "SQL built at run time: " + ev.via
	}
	if ev.operands == 1 && len(ev.dynamic) == 1 {
		return "SQL built at run time: " + ev.dynamic[0]
	}
	parts := ev.dynamic[:min(len(ev.dynamic), 3)]
	more := ""
	if len(ev.dynamic) > 3 {
		more = ", …"
	}
	return "SQL built at run time: concatenation with " + strings.Join(parts, ", ") + more
}

// javaRange is a run of tokens [s, e).
type javaRange struct{ s, e int }

// split cuts tokens [s, e) on the operator sep at their own depth.
func (x *javaFile) split(s, e int, sep string) []javaRange {
	var out []javaRange
	from := s
	for k := s; k < e; k++ {
		t := x.toks[k]
		if t.kind != javaOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			if m := x.match[k]; m > k && m < e {
				k = m
			}
		case sep:
			out = append(out, javaRange{from, k})
			from = k + 1
		}
	}
	if from < e || len(out) > 0 {
		out = append(out, javaRange{from, e})
	}
	return out
}

// describe returns the source text of tokens [s, e) on one line, shortened.
func (x *javaFile) describe(s, e int) string {
	if s >= e {
		return "an empty operand"
	}
	text := strings.Join(strings.Fields(x.source(s, e)), " ")
	const limit = 40
	if len(text) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return text
}

// source returns the file text from token s to token e-1.
func (x *javaFile) source(s, e int) string {
	var sb strings.Builder
	for k := s; k < e; k++ {
		if k > s && x.toks[k].off > x.toks[k-1].end {
			sb.WriteByte(' ')
		}
		sb.WriteString(x.toks[k].text)
	}
	return sb.String()
}

// eval evaluates tokens [s, e) as a string concatenation.
func (x *javaFile) eval(s, e, depth int) *javaEval {
	ev := &javaEval{}
	if s >= e || depth > javaMaxDepth {
		ev.addDynamic(x.describe(s, e))
		return ev
	}
	ops := x.split(s, e, "+")
	ev.operands = len(ops)
	for _, op := range ops {
		x.operand(ev, op.s, op.e, depth)
	}
	if len(ops) == 1 && len(ev.refs) == 1 && x.identChain(s, e) {
		ev.whole = ev.refs[0]
	}
	return ev
}

// identChain reports whether tokens [s, e) are a name or a dotted name.
func (x *javaFile) identChain(s, e int) bool {
	if (e-s)%2 == 0 {
		return false
	}
	for k := s; k < e; k++ {
		if (k-s)%2 == 0 && !x.isIdent(k) || (k-s)%2 == 1 && !x.is(k, ".") {
			return false
		}
	}
	return true
}

// operand adds one operand of a concatenation to ev.
func (x *javaFile) operand(ev *javaEval, s, e, depth int) {
	if s >= e {
		ev.addDynamic(x.describe(s, e))
		return
	}
	t := x.toks[s]
	switch {
	case e-s == 1 && (t.kind == javaString || t.kind == javaCharLit):
		ev.text = append(ev.text, t.literal()...)
		ev.stringy = true
	case e-s == 1 && t.kind == javaNumber && strings.Trim(t.text, "0123456789") == "":
		for k := 0; k < len(t.text); k++ {
			ev.text = append(ev.text, Char{B: t.text[k], Line: t.line, Col: t.col + k})
		}
	case x.is(s, "(") && x.match[s] == e-1:
		sub := x.eval(s+1, e-1, depth+1)
		if ev.operands == 1 {
			ev.operands = sub.operands
		}
		ev.merge(sub)
	case x.identChain(s, e):
		x.reference(ev, s, e, depth)
	case t.kind == javaString && x.is(s+1, "."):
		// "…".formatted(…) and other calls on a literal: the literal is
		// still the start of the string.
		ev.text = append(ev.text, t.literal()...)
		ev.stringy = true
		if x.is(s+2, "formatted") {
			ev.via = "String.formatted"
			ev.addDynamic("formatted(…)")
			return
		}
		ev.addDynamic(x.describe(s, e))
	case x.formatCall(s, e):
		ev.via = x.toks[s].text + ".format"
		args := x.split(s+4, e-1, ",")
		if len(args) > 0 {
			sub := x.eval(args[0].s, args[0].e, depth+1)
			if !sub.stringy && len(args) > 1 {
				// String.format(Locale, format, args…)
				sub = x.eval(args[1].s, args[1].e, depth+1)
			}
			ev.text = append(ev.text, sub.prefixText()...)
			ev.stringy = ev.stringy || sub.stringy
		}
		ev.addDynamic(ev.via + "(…)")
	default:
		ev.addDynamic(x.describe(s, e))
	}
}

// formatCall reports whether tokens [s, e) are exactly String.format(…) or
// MessageFormat.format(…).
func (x *javaFile) formatCall(s, e int) bool {
	return (x.is(s, "String") || x.is(s, "MessageFormat")) && x.is(s+1, ".") && x.is(s+2, "format") &&
		x.is(s+3, "(") && x.match[s+3] == e-1
}

// reference adds a name (sql, this.sql, Queries.SQL) to ev: its value when
// one definition gives it, else a part known only at run time.
func (x *javaFile) reference(ev *javaEval, s, e, depth int) {
	name := x.toks[e-1].text
	d := x.lookup(name, s, e-s > 1)
	if d == nil {
		ev.addDynamic(x.describe(s, e))
		if hostcode.ConstantName(name) {
			ev.foreign++
		}
		return
	}
	ev.refs = append(ev.refs, d)
	ev.stringy = true
	defs := x.defsAt(d, s)
	if len(defs) != 1 || defs[0].appends {
		ev.addDynamic(x.describe(s, e))
		return
	}
	v := x.evalDef(defs[0], depth+1)
	ev.text = append(ev.text, v.prefixText()...)
	if !v.known() {
		ev.addDynamic(x.describe(s, e))
	}
}

// evalDef evaluates the value of a definition once; a definition that reads
// itself (directly or through others) is not known.
func (x *javaFile) evalDef(df *javaDef, depth int) *javaEval {
	if df.eval != nil {
		return df.eval
	}
	if df.evaluating || depth > javaMaxDepth {
		ev := &javaEval{}
		ev.addDynamic(df.decl.name)
		return ev
	}
	df.evaluating = true
	ev := x.eval(df.valStart, df.valEnd, depth)
	df.evaluating = false
	if df.appends {
		// sql += …: the value is the old one plus this, known only at run time.
		ev = &javaEval{stringy: true, refs: ev.refs}
		ev.addDynamic(df.decl.name + " += …")
	}
	df.eval = ev
	return ev
}
