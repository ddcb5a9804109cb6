package driver

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// explainInferred adds to each finding on an inferred column the evidence
// that made it count, so a user can tell a rule from a guess: "inferred
// counter: decremented at dao/OrderDao.xml:100". A finding on a table
// (GS006) names the inferred columns that make the table guarded.
func explainInferred(fs []lint.Finding, pol *policy.Policy, s *schema.Schema) {
	inf := pol.Inferred
	if inf == nil {
		return
	}
	// Most findings of a run name a few columns many times: what the policy
	// says of a column is worked out once per column, and ExplainAt, which
	// words it for the finding's place, runs only where there is something
	// to say.
	explained := map[[2]string]bool{}
	for i := range fs {
		f := &fs[i]
		if f.Table == "" {
			continue
		}
		if f.ColumnName != "" {
			tc := [2]string{f.Table, f.ColumnName}
			says, ok := explained[tc]
			if !ok {
				k := policy.Key(f.Table, f.ColumnName)
				says = (inf.Counters[k] != nil || inf.States[k] != nil || inf.Keys[k] != nil) &&
					pol.Explain(f.Table, f.ColumnName) != ""
				explained[tc] = says
			}
			if !says {
				continue
			}
		}
		var why []string
		if f.ColumnName != "" {
			if w := pol.ExplainAt(f.Table, f.ColumnName, f.File, f.Line); w != "" {
				why = append(why, w)
			}
		} else if t := s.Table(f.Table); t != nil && f.Code == "GS006" {
			for _, c := range t.Columns {
				if !pol.IsCounter(t.Name, c.Name) && !pol.IsState(t.Name, c.Name) {
					continue
				}
				if w := pol.Explain(t.Name, c.Name); w != "" {
					why = append(why, c.Name+": "+w)
				}
			}
		}
		if len(why) > 0 {
			f.Message += " (" + strings.Join(why, "; ") + ")"
		}
	}
}
