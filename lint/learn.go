package lint

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// ObservationKind says what a statement showed about a column.
type ObservationKind int

// The kinds of observations vocabulary inference reads.
const (
	// ObsDecrement: an UPDATE or upsert sets the column to itself minus an amount.
	ObsDecrement ObservationKind = iota + 1
	// ObsCondition: an UPDATE sets the column and its WHERE compares the
	// column with a value (=, <>, IN): a compare-and-set of its state.
	ObsCondition
	// ObsFilter: an UPDATE's WHERE compares the column with a value while
	// writing other columns (`… AND is_deleted = 0`).
	ObsFilter
	// ObsAssign: an UPDATE or upsert sets the column; Value says to what.
	ObsAssign
)

// Observation is one fact a statement of the code shows about a column.
type Observation struct {
	Kind          ObservationKind
	Table, Column string
	// Value is the value assigned or compared: "?" for a parameter, the
	// literal's text, or "" for any other expression.
	Value string
	File  string
	Line  int
	// Count is how many statements showed the same fact; File and Line are
	// the first of them. Zero counts as one.
	Count int
}

// observationKey identifies the facts one file's observations fold into.
type observationKey struct {
	kind                 ObservationKind
	table, column, value string
}

// observationFold keeps one observation per fact of a file, counting the
// statements that showed it: a file of ten thousand decrements of one
// column is one fact, not ten thousand, for the inference and for memory.
type observationFold struct {
	at  map[observationKey]int
	out []Observation
}

func (f *observationFold) add(o Observation) {
	k := observationKey{o.Kind, o.Table, o.Column, o.Value}
	if i, ok := f.at[k]; ok {
		f.out[i].Count += max(o.Count, 1)
		return
	}
	if f.at == nil {
		f.at = map[observationKey]int{}
	}
	o.Count = max(o.Count, 1)
	f.at[k] = len(f.out)
	f.out = append(f.out, o)
}

// A Learner infers vocabulary from the code (DESIGN §4): Observe reads one
// parsed statement of a query source and emits what it shows, Infer turns
// every observation of a run, with the schema, into the policy's inferred
// vocabulary. Observe is called from several goroutines at once and must
// not keep state.
type Learner struct {
	Observe func(st *Statement, s *schema.Schema, emit func(Observation))
	Infer   func(obs []Observation, s *schema.Schema, pol *policy.Policy) *policy.Inferred
}

// explainInferred adds to each finding on an inferred column the evidence
// that made it count, so a user can tell a rule from a guess: "inferred
// counter: decremented at dao/OrderDao.xml:100". A finding on a table
// (GS006) names the inferred columns that make the table guarded.
func explainInferred(fs []Finding, pol *policy.Policy, s *schema.Schema) {
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
