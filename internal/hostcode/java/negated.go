package java

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// Signed amounts: `stock = stock + #{delta}` decrements when a caller
// passes delta negated (-qty, 0 - n, -1 * n, n * -1, a negative constant,
// amount.negate()), or passes a record it set so (dto.setDelta(-qty);
// mapper.addStock(dto)). The lint driver joins these calls with the
// placeholders that bind the parameter (stmt.NegatedArg).

// negatedArgs returns the arguments of the file's calls that are negated
// amounts, or records holding one.
func (x *javaFile) negatedArgs() []stmt.NegatedArg {
	var out []stmt.NegatedArg
	seen := map[[2]int]bool{}
	for i, t := range x.toks {
		if t.kind != javaOp || t.text != "-" && !(t.text == "." && x.is(i+1, "negate")) {
			continue
		}
		name, k, args, a, ok := x.argumentAt(i)
		if !ok || seen[[2]int{name, k}] || !x.negatedAmount(a.s, a.e) {
			continue
		}
		seen[[2]int{name, k}] = true
		out = append(out, stmt.NegatedArg{Func: x.toks[name].text, Arg: k, Args: args, Text: x.describe(a.s, a.e), File: x.path, Line: x.toks[name].line})
		out = append(out, x.negatedRecord(name, args)...)
	}
	return out
}

// argumentAt finds the call whose argument holds token i at its own
// depth: the call's name token, the argument's position, how many the
// call passes and the argument's tokens.
func (x *javaFile) argumentAt(i int) (name, k, n int, arg javaRange, ok bool) {
	open := x.opener[i]
	name = open - 1
	if !x.is(open, "(") || !x.isIdent(name) || javaControl[x.toks[name].text] || x.declaresMethod(name) || x.methodBlock(i) < 0 {
		return 0, 0, 0, javaRange{}, false
	}
	args := x.split(open+1, x.match[open], ",")
	for k, a := range args {
		if a.s <= i && i < a.e {
			return name, k, len(args), a, true
		}
	}
	return 0, 0, 0, javaRange{}, false
}

// negatedRecord returns, for a setter call `r.setDelta(-qty)` on a plain
// name r, the calls after it in its method that pass r, until r is
// assigned again: each passes property delta negated.
func (x *javaFile) negatedRecord(setter, args int) []stmt.NegatedArg {
	m := x.toks[setter].text
	if args != 1 || len(m) <= 3 || !strings.HasPrefix(m, "set") || m[3] < 'A' || m[3] > 'Z' ||
		!x.is(setter-1, ".") || !x.isIdent(setter-2) || x.is(setter-3, ".") {
		return nil
	}
	rec, prop := x.toks[setter-2].text, strings.ToLower(m[3:4])+m[4:]
	set := x.describe(setter-2, x.match[setter+1]+1)
	var out []stmt.NegatedArg
	for j, end := x.match[setter+1]+1, x.scopeEnd(x.methodBlock(setter)); j < end; j++ {
		if x.toks[j].text != rec || !x.isIdent(j) || x.is(j-1, ".") {
			continue
		}
		if x.is(j+1, "=") {
			break
		}
		if name, k, n, a, ok := x.argumentAt(j); ok && a.s == j && a.e == j+1 {
			out = append(out, stmt.NegatedArg{Func: x.toks[name].text, Arg: k, Args: n, Prop: prop,
				Text: rec + " (" + set + " at line " + itoa(x.toks[setter].line) + ")", File: x.path, Line: x.toks[name].line})
		}
	}
	return out
}

// negatedAmount reports whether tokens [s, e) are a negated amount: -x,
// 0 - x, -1 * x, x * -1 or x.negate(), x one operand.
func (x *javaFile) negatedAmount(s, e int) bool {
	switch {
	case x.is(s, "-") && x.numberIs(s+1, "1") && x.is(s+2, "*"):
		return x.operandEnd(s+3) == e
	case x.is(s, "-"):
		return x.operandEnd(s+1) == e
	case x.numberIs(s, "0") && x.is(s+1, "-"):
		return x.operandEnd(s+2) == e
	}
	k := x.operandEnd(s)
	if k > s && k+3 == e && x.is(k, "*") && x.is(k+1, "-") && x.numberIs(k+2, "1") {
		return true
	}
	return k == e && e-s >= 4 && x.is(e-4, ".") && x.is(e-3, "negate") && x.is(e-2, "(") && x.is(e-1, ")")
}

// numberIs reports whether token k is the integer literal v (0, 0L).
func (x *javaFile) numberIs(k int, v string) bool {
	return k >= 0 && k < len(x.toks) && x.toks[k].kind == javaNumber && strings.TrimRight(x.toks[k].text, "lL") == v
}

// operandEnd returns the end of the operand that starts at token k — a
// name, a literal, a parenthesised expression or a cast, with the fields,
// calls and indexes after it — or -1 when none starts there.
func (x *javaFile) operandEnd(k int) int {
	switch {
	case k >= len(x.toks):
		return -1
	case x.is(k, "("):
		k = x.match[k] + 1
		if x.isIdent(k) || k < len(x.toks) && x.toks[k].kind == javaNumber || x.is(k, "(") {
			return x.operandEnd(k) // a cast: (long) n
		}
	case x.toks[k].kind == javaNumber:
		return k + 1
	case x.isIdent(k) && !javaNotType[x.toks[k].text]:
		k++
	default:
		return -1
	}
	for {
		switch {
		case x.is(k, ".") && x.isIdent(k+1):
			k += 2
		case x.is(k, "(") || x.is(k, "["):
			k = x.match[k] + 1
		default:
			return k
		}
	}
}
