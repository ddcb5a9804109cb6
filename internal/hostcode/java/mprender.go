package java

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// plusCompare maps the comparison methods of a wrapper to their operator.
var plusCompare = map[string]string{
	"eq": " = ?", "ne": " <> ?", "gt": " > ?", "ge": " >= ?", "lt": " < ?", "le": " <= ?",
	"like": " LIKE ?", "notLike": " NOT LIKE ?", "likeLeft": " LIKE ?", "likeRight": " LIKE ?",
	"notLikeLeft": " NOT LIKE ?", "notLikeRight": " NOT LIKE ?",
	"in": " IN (?)", "notIn": " NOT IN (?)", "isNull": " IS NULL", "isNotNull": " IS NOT NULL",
	"between": " BETWEEN ? AND ?", "notBetween": " NOT BETWEEN ? AND ?",
}

// plusColumnArgs is how many arguments after the column a method takes
// (-1: any number, the varargs of in).
var plusColumnArgs = map[string]int{
	"isNull": 0, "isNotNull": 0, "between": 2, "notBetween": 2, "in": -1, "notIn": -1,
	"set": 1, "setIncrBy": 1, "setDecrBy": 1,
}

// plusPred is one predicate of a rendered WHERE.
type plusPred struct {
	or   bool // joined with OR rather than AND
	text Text
}

// update renders the chain as the UPDATE the call sends, with the steps
// of the version the OptimisticLockerInnerInterceptor binds. skip is set
// when the write is not rendered and needs no report: the SET or the
// WHERE depends on an entity guard cannot see, or every predicate may be
// absent.
func (r *plusRender) update(chain *plusChain, entity *javaRange, start int) (sql Text, steps []stmt.ParamStep, skip bool) {
	x := r.x
	var sets []Text
	versionSet := -1
	// The entity's non-null properties come first.
	if entity != nil {
		rec, ok := x.plusRecord(*entity, start)
		if !ok {
			if r.pe.decl == nil || r.pe.decl.Version != "" {
				return nil, nil, true
			}
		}
		for _, s := range rec.sets {
			if s.Text == "null" || !r.pe.isColumn(s.Property) {
				continue
			}
			if r.pe.decl != nil && s.Property == r.pe.decl.Version {
				versionSet = len(sets)
			}
			sets = append(sets, r.columnText(r.pe.column(s.Property)+" = ?", s.tok))
		}
	}
	var preds []plusPred
	maybe := false
	if chain.ctorArg != nil {
		rec, ok := x.plusRecord(*chain.ctorArg, start)
		if !ok {
			return nil, nil, true
		}
		for _, s := range rec.sets {
			if s.Text != "null" && r.pe.isColumn(s.Property) {
				preds = append(preds, plusPred{text: r.columnText(r.pe.column(s.Property)+" = ?", s.tok)})
			}
		}
	}
	var last Text
	pendingOr := false
	for _, op := range chain.ops {
		if r.why != "" {
			break
		}
		switch op.method {
		case "lambda":
			if len(op.args) == 0 {
				// new UpdateWrapper<T>().lambda(): the same conditions,
				// written with method references from here on.
				continue
			}
			r.fail("lambda(…) at line " + itoa(x.toks[op.tok].line) + " is not followed")
		case "set", "setSql", "setIncrBy", "setDecrBy":
			if t, ok := r.setItem(op); ok {
				sets = append(sets, t)
			}
		case "or":
			if len(op.args) == 0 {
				pendingOr = true
				continue
			}
			fallthrough
		case "and", "nested":
			p, absent, ok := r.group(op)
			if !ok {
				continue
			}
			if op.maybe || absent {
				maybe = true
				continue
			}
			p.or = pendingOr || op.method == "or"
			pendingOr = false
			preds = append(preds, p)
		case "last":
			t, ok := r.constText(op)
			if !ok && len(op.args) == 1 {
				// last(StrUtil.format(" and (stock - {} >= 0)", n)): the
				// template with its values bound.
				t, ok = x.formatTemplate(op.args[0].s, op.args[0].e)
			}
			if !ok {
				r.fail("last(" + x.describe(op.args[0].s, op.args[0].e) + ") is built at run time")
				continue
			}
			last = t
		default:
			p, absent, ok := r.predicate(op)
			if !ok {
				continue
			}
			if op.maybe || absent {
				maybe = true
				continue
			}
			p.or = pendingOr
			pendingOr = false
			preds = append(preds, p)
		}
	}
	if r.why != "" {
		return nil, nil, false
	}
	if len(sets) == 0 || len(preds) == 0 && maybe {
		return nil, nil, true
	}
	r.generated("UPDATE "+r.pe.table+" SET ", start)
	setParam := -1
	for i, s := range sets {
		if i > 0 {
			r.text = append(r.text, Char{B: ',', Line: s[0].Line, Col: s[0].Col}, Char{B: ' ', Line: s[0].Line, Col: s[0].Col})
		}
		if i == versionSet {
			setParam = r.count()
		}
		r.text = append(r.text, s...)
	}
	if versionSet >= 0 {
		col := r.pe.column(r.pe.decl.Version)
		preds = append(preds, plusPred{text: r.columnText(col+" = ?", start)})
	}
	for i, p := range preds {
		switch {
		case i == 0:
			r.generated(" WHERE ", start)
		case p.or:
			r.generated(" OR ", start)
		default:
			r.generated(" AND ", start)
		}
		if versionSet >= 0 && i == len(preds)-1 && setParam >= 0 {
			steps = append(steps, stmt.ParamStep{Param: setParam, From: r.count()})
		}
		r.text = append(r.text, p.text...)
	}
	if last != nil {
		r.generated(" ", start)
		r.text = append(r.text, last...)
	}
	return r.text, steps, false
}

// count is the number of placeholders rendered so far.
func (r *plusRender) count() int {
	n := 0
	for _, c := range r.text {
		if c.B == '?' {
			n++
		}
	}
	return n
}

// columnText is generated text placed at token k.
func (r *plusRender) columnText(s string, k int) Text {
	t := r.x.toks[k]
	out := make(Text, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = Char{B: s[i], Line: t.line, Col: t.col + i}
	}
	return out
}

// columnRef returns the column a wrapper argument names: `Sku::getStock`
// through the entity's mapping, or a string literal as written.
func (r *plusRender) columnRef(a javaRange) (string, bool) {
	x := r.x
	if a.e-a.s >= 3 && x.is(a.e-2, "::") && x.isIdent(a.e-1) {
		m := x.toks[a.e-1].text
		p := ""
		switch {
		case strings.HasPrefix(m, "get") && len(m) > 3:
			p = m[3:]
		case strings.HasPrefix(m, "is") && len(m) > 2:
			p = m[2:]
		default:
			return "", false
		}
		p = strings.ToLower(p[:1]) + p[1:]
		return r.pe.column(p), true
	}
	if a.e == a.s+1 && x.toks[a.s].kind == javaString {
		return strings.Trim(x.toks[a.s].literal().String(), "`"), true
	}
	return "", false
}

// condition splits off the boolean first argument of a conditional method:
// present reports whether the method surely runs, absent whether it surely
// does not (a literal false).
func (r *plusRender) condition(op plusOp, columnFirst bool) (args []javaRange, maybe, absent bool) {
	args = op.args
	if len(args) == 0 {
		return args, false, false
	}
	first := args[0]
	isCond := false
	if columnFirst {
		_, col := r.columnRef(first)
		isCond = !col && len(args) >= 2
	} else {
		isCond = !r.x.stringArg(first)
	}
	if !isCond {
		return args, false, false
	}
	switch {
	case first.e == first.s+1 && r.x.is(first.s, "true"):
		return args[1:], false, false
	case first.e == first.s+1 && r.x.is(first.s, "false"):
		return args[1:], false, true
	}
	return args[1:], true, false
}

// stringArg reports whether argument a is a string expression: it starts
// with a literal, formats a constant template, or evaluates as a String.
func (x *javaFile) stringArg(a javaRange) bool {
	if a.s < a.e && x.toks[a.s].kind == javaString {
		return true
	}
	if _, ok := x.formatTemplate(a.s, a.e); ok {
		return true
	}
	return x.eval(a.s, a.e, 0).stringy
}

// setItem renders one SET method of the chain.
func (r *plusRender) setItem(op plusOp) (Text, bool) {
	x := r.x
	if op.method == "setSql" {
		args, _, absent := r.condition(op, false)
		if absent || len(args) == 0 {
			return nil, false
		}
		t, ok := r.sqlText(args[0], args[1:])
		if !ok {
			r.fail("setSql(" + x.describe(args[0].s, args[0].e) + ") is built at run time")
			return nil, false
		}
		return t, true
	}
	args, _, absent := r.condition(op, true)
	if absent || len(args) < 2 {
		if !absent {
			r.fail(op.method + "(…) at line " + itoa(x.toks[op.tok].line) + " is not a form guard reads")
		}
		return nil, false
	}
	col, ok := r.columnRef(args[0])
	if !ok {
		r.fail(op.method + "(" + x.describe(args[0].s, args[0].e) + ", …) names no column guard can read")
		return nil, false
	}
	switch op.method {
	case "setIncrBy":
		return r.columnText(col+" = "+col+" + ?", op.tok), true
	case "setDecrBy":
		return r.columnText(col+" = "+col+" - ?", op.tok), true
	}
	return r.columnText(col+" = ?", op.tok), true
}

// predicate renders one comparison or apply of the chain. drop is set when
// the predicate may be absent (a boolean first argument); ok is false when
// the method is not a predicate guard reads (then the render fails).
func (r *plusRender) predicate(op plusOp) (p plusPred, drop, ok bool) {
	x := r.x
	if op.method == "apply" {
		args, maybe, absent := r.condition(op, false)
		if absent {
			return p, true, true
		}
		if len(args) == 0 {
			r.fail("apply() at line " + itoa(x.toks[op.tok].line) + " is not a form guard reads")
			return p, false, false
		}
		t, ok := r.sqlText(args[0], args[1:])
		if !ok {
			r.fail("apply(" + x.describe(args[0].s, args[0].e) + ") is built at run time")
			return p, false, false
		}
		return plusPred{text: t}, maybe, true
	}
	sqlOp, known := plusCompare[op.method]
	if !known {
		r.fail("wrapper method " + op.method + "(…) at line " + itoa(x.toks[op.tok].line) + " is not followed")
		return p, false, false
	}
	args, maybe, absent := r.condition(op, true)
	if absent {
		return p, true, true
	}
	want, ok := plusColumnArgs[op.method]
	if !ok {
		want = 1
	}
	if len(args) == 0 || want >= 0 && len(args) != want+1 || want < 0 && len(args) < 2 {
		r.fail(op.method + "(…) at line " + itoa(x.toks[op.tok].line) + " is not a form guard reads")
		return p, false, false
	}
	col, ok := r.columnRef(args[0])
	if !ok {
		r.fail(op.method + "(" + x.describe(args[0].s, args[0].e) + ", …) names no column guard can read")
		return p, false, false
	}
	if lit, ok := r.intLiteral(args); ok && want == 1 && strings.HasSuffix(sqlOp, " ?") {
		// A constant bound stays one (gt(Sku::getStock, 0): stock > 0), so
		// that it guards what it guards.
		sqlOp = strings.TrimSuffix(sqlOp, "?") + lit
	}
	return plusPred{text: r.columnText(col+sqlOp, op.tok)}, maybe, true
}

// intLiteral returns the value argument of a comparison when it is a
// decimal integer literal (0, 10L, -1), as SQL writes it.
func (r *plusRender) intLiteral(args []javaRange) (string, bool) {
	text := strings.TrimRight(strings.ReplaceAll(r.x.source(args[len(args)-1].s, args[len(args)-1].e), " ", ""), "lL")
	v, err := strconv.ParseInt(text, 10, 64)
	octal := len(strings.TrimPrefix(text, "-")) > 1 && strings.TrimPrefix(text, "-")[0] == '0'
	return strconv.FormatInt(v, 10), len(args) == 2 && err == nil && !octal
}

// group renders and(i -> i.…), or(i -> i.…) and nested(i -> i.…) as one
// parenthesised predicate; drop and ok are predicate's.
func (r *plusRender) group(op plusOp) (p plusPred, drop, ok bool) {
	x := r.x
	args := op.args
	maybe := false
	if len(args) == 2 {
		a, m, ab := r.condition(plusOp{method: op.method, args: args}, false)
		if ab {
			return p, true, true
		}
		args, maybe = a, m
	}
	if len(args) != 1 {
		r.fail(op.method + "(…) at line " + itoa(x.toks[op.tok].line) + " is not a form guard reads")
		return p, false, false
	}
	a := args[0]
	if a.e-a.s < 3 || !x.isIdent(a.s) || !x.is(a.s+1, "->") || !x.is(a.s+2, x.toks[a.s].text) {
		r.fail(op.method + "(" + x.describe(a.s, a.e) + ") is not a lambda guard reads")
		return p, false, false
	}
	var inner []plusOp
	k := a.s + 3
	for x.is(k, ".") && x.isIdent(k+1) && x.is(k+2, "(") {
		cl := x.match[k+2]
		inner = append(inner, plusOp{method: x.toks[k+1].text, tok: k + 1, args: x.split(k+3, cl, ",")})
		k = cl + 1
	}
	if k != a.e || len(inner) == 0 {
		r.fail(op.method + "(" + x.describe(a.s, a.e) + ") is not a lambda guard reads")
		return p, false, false
	}
	text := r.columnText("(", op.tok)
	pendingOr := false
	n := 0
	for _, in := range inner {
		if in.method == "or" && len(in.args) == 0 {
			pendingOr = true
			continue
		}
		q, ab, ok := r.predicate(in)
		if !ok {
			return p, false, false
		}
		if ab {
			// A conditional predicate inside a group: what the group
			// requires is not known.
			return p, true, true
		}
		if n > 0 {
			sep := " AND "
			if pendingOr {
				sep = " OR "
			}
			text = append(text, r.columnText(sep, in.tok)...)
		}
		pendingOr = false
		text = append(text, q.text...)
		n++
	}
	text = append(text, r.columnText(")", op.tok)...)
	return plusPred{text: text}, maybe, true
}

// constText renders the one argument of last(…) when it is constant.
func (r *plusRender) constText(op plusOp) (Text, bool) {
	if len(op.args) != 1 {
		return nil, false
	}
	ev := r.x.eval(op.args[0].s, op.args[0].e, 0)
	if !ev.known() || !ev.stringy {
		return nil, false
	}
	return ev.text, true
}

// sqlText renders the SQL text argument a of setSql or apply: its
// constant parts as written, every other operand of the concatenation as
// `?`, and the {0}, {1}… markers of the bound params as `?`. ok is false
// when no part of it is constant.
func (r *plusRender) sqlText(a javaRange, params []javaRange) (Text, bool) {
	x := r.x
	if v, ok := r.override[a.s]; ok && a.e == a.s+1 {
		a = v // one of the values a local holding the text is given
	}
	var out Text
	constant := false
	for _, op := range x.split(a.s, a.e, "+") {
		if op.s >= op.e {
			return nil, false
		}
		t := x.toks[op.s]
		switch {
		case op.e == op.s+1 && t.kind == javaString:
			out = append(out, t.literal()...)
			constant = true
			continue
		case x.identChain(op.s, op.e):
			if ev := x.eval(op.s, op.e, 0); ev.known() && ev.stringy {
				out = append(out, ev.text...)
				constant = true
				continue
			}
		default:
			if ft, ok := x.formatTemplate(op.s, op.e); ok {
				out = append(out, ft...)
				constant = true
				continue
			}
		}
		out = append(out, Char{B: '?', Line: t.line, Col: t.col})
	}
	if !constant {
		return nil, false
	}
	// {0}, {1}: the params MyBatis-Plus binds.
	var bound Text
	for i := 0; i < len(out); i++ {
		if out[i].B == '{' {
			j := i + 1
			for j < len(out) && out[j].B >= '0' && out[j].B <= '9' {
				j++
			}
			if j > i+1 && j < len(out) && out[j].B == '}' {
				if n, err := strconv.Atoi(out[i+1 : j].String()); err == nil && n < len(params) {
					bound = append(bound, Char{B: '?', Line: out[i].Line, Col: out[i].Col})
					i = j
					continue
				}
			}
		}
		bound = append(bound, out[i])
	}
	return bound, true
}

func itoa(n int) string { return strconv.Itoa(n) }

// formatTemplate reads tokens [s, e) when they are exactly a call of a
// string formatting helper whose template is a constant — Hutool's
// StrUtil.format("stock - {} >= 0", n) (or CharSequenceUtil's),
// String.format("… %s …", n), MessageFormat.format("… {0} …", n) — and
// returns the template with each of its markers as `?`: the values are
// numbers the code computes, bound where the markers stand.
func (x *javaFile) formatTemplate(s, e int) (Text, bool) {
	if e-s < 5 || !x.is(s+1, ".") || !x.is(s+2, "format") || !x.is(s+3, "(") || x.match[s+3] != e-1 {
		return nil, false
	}
	var marker func(t Text, i int) int // the length of a marker at i, 0 for none
	switch x.toks[s].text {
	case "StrUtil", "CharSequenceUtil":
		marker = func(t Text, i int) int {
			if t[i].B == '{' && i+1 < len(t) && t[i+1].B == '}' {
				return 2
			}
			return 0
		}
	case "String":
		marker = func(t Text, i int) int {
			if t[i].B == '%' && i+1 < len(t) && strings.IndexByte("sd", t[i+1].B) >= 0 {
				return 2
			}
			return 0
		}
	case "MessageFormat":
		marker = func(t Text, i int) int {
			j := i + 1
			for t[i].B == '{' && j < len(t) && t[j].B >= '0' && t[j].B <= '9' {
				j++
			}
			if j > i+1 && j < len(t) && t[j].B == '}' {
				return j + 1 - i
			}
			return 0
		}
	default:
		return nil, false
	}
	args := x.split(s+4, e-1, ",")
	if len(args) < 2 {
		return nil, false
	}
	ev := x.eval(args[0].s, args[0].e, 0)
	if !ev.known() || !ev.stringy {
		return nil, false
	}
	var out Text
	for i := 0; i < len(ev.text); i++ {
		if n := marker(ev.text, i); n > 0 {
			out = append(out, Char{B: '?', Line: ev.text[i].Line, Col: ev.text[i].Col})
			i += n - 1
			continue
		}
		out = append(out, ev.text[i])
	}
	return out, true
}
