package lint

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
// one that names a cause of its own too is kept as it is. A finding that
// left reports (a suppressed one) still counts towards the statements a
// cause is shared by, but the joined finding leaves it out, and a cause
// whose findings are all left out has none.
func JoinCauses(fs []Finding, rules map[string]*Rule, left func(Finding) bool) []Finding {
	type statement struct {
		file string
		line int
	}
	type group struct {
		cause  Cause
		pieces []int
		stmts  map[statement]bool
	}
	var order []causeKey
	groups := map[causeKey]*group{}
	for i := range fs {
		for _, c := range fs[i].Causes {
			k := causeKey{fs[i].Code, c.File, c.Line, c.Col}
			g := groups[k]
			if g == nil {
				g = &group{cause: c, stmts: map[statement]bool{}}
				groups[k] = g
				order = append(order, k)
			}
			g.pieces = append(g.pieces, i)
			g.stmts[statement{fs[i].File, fs[i].Line}] = true
		}
	}
	if len(groups) == 0 {
		return fs
	}
	shared := func(k causeKey) bool {
		r := rules[k.code]
		return len(groups[k].stmts) >= 2 && r != nil && r.Join != nil
	}
	var joined []Finding
	for _, k := range order {
		if !shared(k) {
			continue
		}
		var pieces []Finding
		for _, i := range groups[k].pieces {
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
	for _, f := range fs {
		all := len(f.Causes) > 0
		for _, c := range f.Causes {
			all = all && shared(causeKey{f.Code, c.File, c.Line, c.Col})
		}
		if !all {
			out = append(out, f)
		}
	}
	return append(out, joined...)
}
