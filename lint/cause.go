package lint

import (
	"slices"
	"strings"
)

// Cause is a place of host code behind the findings of several
// statements: one call that sets the clause each of them pastes
// (`example.setOrderByClause(sort)` in a helper that takes any Example).
// The report joins the findings of a rule that name one Cause shared by
// several statements into one finding standing at it (Rule.Join): one
// root cause, one finding, and a suppression of it is written where the
// fix is made.
type Cause struct {
	File               string
	Line, Col, EndLine int
	// Call is the host code as written, shortened.
	Call string
	// Unchecked names, as written, what it passes that no check vouches
	// for.
	Unchecked []string
}

// causeKey names a cause of one rule's findings by where it stands.
type causeKey struct {
	code, file string
	line, col  int
}

// JoinCauses replaces the findings that name a cause several statements
// share (Finding.Causes) with one finding at the cause, made by the Join of
// their rule in rules: a finding whose every cause is shared is dropped,
// one that names a cause of its own too is kept as it is. Each finding
// joins one cause at most, the one shared by the most statements first
// (a setter that forwards its method's parameter, `this.setX(x)`, last:
// its callers are the cause), so the joined findings never outnumber the
// ones they replace. A finding that left reports (a suppressed one) still
// counts towards the statements a cause is shared by, but the joined
// finding leaves it out, and a cause whose findings are all left out has
// none.
func JoinCauses(fs []Finding, rules map[string]*Rule, left func(Finding) bool) []Finding {
	order, groups := causeGroups(fs)
	if len(groups) == 0 {
		return fs
	}
	shared := func(k causeKey) bool {
		r := rules[k.code]
		return len(groups[k].stmts) >= 2 && r != nil && r.Join != nil
	}
	joinable := func(i int) bool {
		all := len(fs[i].Causes) > 0
		for _, c := range fs[i].Causes {
			all = all && shared(causeKey{fs[i].Code, c.File, c.Line, c.Col})
		}
		return all
	}
	slices.SortStableFunc(order, func(a, b causeKey) int {
		fa, fb := strings.HasPrefix(groups[a].cause.Call, "this."), strings.HasPrefix(groups[b].cause.Call, "this.")
		if fa != fb {
			if fa {
				return 1
			}
			return -1
		}
		return len(groups[b].stmts) - len(groups[a].stmts)
	})
	claimed := make([]bool, len(fs))
	var joined []Finding
	for _, k := range order {
		if !shared(k) {
			continue
		}
		var mine []int
		stmts := map[causeStatement]bool{}
		for _, i := range groups[k].pieces {
			if !claimed[i] {
				mine = append(mine, i)
				stmts[causeStatement{fs[i].File, fs[i].Line}] = true
			}
		}
		if len(stmts) < 2 {
			continue
		}
		var pieces []Finding
		for _, i := range mine {
			// A finding that names a cause of its own too stays as it
			// is; the joined finding lists its statement all the same.
			claimed[i] = joinable(i)
			if !left(fs[i]) {
				pieces = append(pieces, fs[i])
			}
		}
		if len(pieces) == 0 {
			continue
		}
		f := rules[k.code].Join(groups[k].cause, pieces)
		f.Code, f.Rule, f.Severity = pieces[0].Code, pieces[0].Rule, pieces[0].Severity
		joined = append(joined, f)
	}
	out := fs[:0]
	for i, f := range fs {
		if !claimed[i] {
			out = append(out, f)
		}
	}
	return append(out, joined...)
}

// causeStatement is a statement a finding stands at.
type causeStatement struct {
	file string
	line int
}

// causeGroup is the findings that name one cause, and their statements.
type causeGroup struct {
	cause  Cause
	pieces []int
	stmts  map[causeStatement]bool
}

// causeGroups gathers the findings of fs by the causes they name, the
// causes in the order first named.
func causeGroups(fs []Finding) ([]causeKey, map[causeKey]*causeGroup) {
	var order []causeKey
	groups := map[causeKey]*causeGroup{}
	for i := range fs {
		for _, c := range fs[i].Causes {
			k := causeKey{fs[i].Code, c.File, c.Line, c.Col}
			g := groups[k]
			if g == nil {
				g = &causeGroup{cause: c, stmts: map[causeStatement]bool{}}
				groups[k] = g
				order = append(order, k)
			}
			g.pieces = append(g.pieces, i)
			g.stmts[causeStatement{fs[i].File, fs[i].Line}] = true
		}
	}
	return order, groups
}
