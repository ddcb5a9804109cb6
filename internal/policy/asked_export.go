package policy

import (
	"cmp"
	"maps"
	"slices"
)

// Columns returns the columns a recorded questions about (see Recording),
// and those it recorded StateByCode questions about, each in order: the
// lint cache keeps a file's questions so, and AskedAbout makes them again.
func (a *Asked) Columns() (asked, byCode [][2]string) {
	if a == nil {
		return nil, nil
	}
	order := func(x, y [2]string) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) }
	return slices.SortedFunc(maps.Keys(a.cols), order), slices.SortedFunc(maps.Keys(a.byCode), order)
}

// AskedAbout returns the record of questions whose Columns are asked and
// byCode: it answers Any and AnyStateByCode as the one that asked them.
func AskedAbout(asked, byCode [][2]string) *Asked {
	a := &Asked{cols: map[[2]string]struct{}{}, answers: map[askedKey]bool{}, byCode: map[[2]string]struct{}{}}
	for _, tc := range asked {
		a.cols[tc] = struct{}{}
	}
	for _, tc := range byCode {
		a.byCode[tc] = struct{}{}
	}
	return a
}
