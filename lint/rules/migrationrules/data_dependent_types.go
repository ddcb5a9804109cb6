package migrationrules

import (
	"github.com/guard-sql/guard/internal/sqlparse"
)

// breach is one way a narrower type meets existing rows: the rows it
// breaks, in words, and the SQL condition that finds them. uncounted says
// that guard migrate's preflight does not count them: the change does not
// fail on them (a rounding).
type breach struct {
	rows      string
	where     string
	uncounted bool
}

// narrowing lists the values of column col (as written) that type before
// holds and type after does not, as sqlparse.Breaches finds them — the
// breaches guard migrate's preflight counts.
func narrowing(col string, before replayedColumn, after sqlparse.ColumnType) []breach {
	was := " (it was " + before.text + ")"
	bs, _ := sqlparse.Breaches(before.typ, after, quoteName(col))
	var out []breach
	for _, b := range bs {
		switch {
		case b.Charset:
			// Only a multi-byte character set overflows it: not claimed
			// without knowing the column's.
		case b.Rounds:
			out = append(out, breach{rows: "rows where " + col + " " + b.Values + was + " are rounded, in strict sql_mode too", where: b.Where, uncounted: true})
		default:
			out = append(out, breach{rows: "rows whose " + col + " " + b.Values + was + " fail it, or " + b.Lax + " outside strict sql_mode", where: b.Where})
		}
	}
	return out
}
