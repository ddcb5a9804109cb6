package driver

import "github.com/guard-sql/guard/lint"

// A dynamic MyBatis statement reaches the rules as several variants (every
// <if> present, every <if> absent, each <when> chosen), one fragment each,
// and a rule that fires on two of them fires twice on what the user wrote
// once. The engine keeps one finding per statement, code, table and column:
// the first the rules reported, which is the first variant's.

// stmtPos is where a statement starts in its file.
type stmtPos struct{ line, col int }

// hostPos names a statement of a dynamic variant by what all the variants
// share: the position of their element, and the statement's index in the
// variant's text (a mapper element may run several statements).
type hostPos struct{ line, col, index int }

// variantHosts maps the start of each statement cut from a dynamic variant
// to its hostPos.
func variantHosts(stmts []*lint.Statement) map[stmtPos]hostPos {
	var m map[stmtPos]hostPos
	index := 0
	for i, st := range stmts {
		fr := st.Fragment
		if i > 0 && stmts[i-1].Fragment == fr {
			index++
		} else {
			index = 0
		}
		if fr == nil || fr.Variant == "" {
			continue
		}
		if m == nil {
			m = map[stmtPos]hostPos{}
		}
		m[stmtPos{st.Line, st.Column}] = hostPos{fr.Line, fr.Col, index}
	}
	return m
}

// variantKey identifies what a finding says about a statement, whichever
// variant it came from.
type variantKey struct {
	file                string
	host                hostPos
	code, table, column string
}
