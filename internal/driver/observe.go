package driver

import "github.com/guard-sql/guard/lint"

// observationKey identifies the facts one file's observations fold into.
type observationKey struct {
	kind                 lint.ObservationKind
	table, column, value string
}

// observationFold keeps one observation per fact of a file, counting the
// statements that showed it: a file of ten thousand decrements of one
// column is one fact, not ten thousand, for the inference and for memory.
type observationFold struct {
	at  map[observationKey]int
	out []lint.Observation
}

func (f *observationFold) add(o lint.Observation) {
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
