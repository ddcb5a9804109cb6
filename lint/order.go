package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
)

// The one engine's last steps, for every source of findings alike — files
// offline, information_schema, statement digests and Redis live: a finding
// a rule reported twice is kept once, and the report is in one order.

// Active reports whether a finding is reported at all: the policy did not
// turn its rule off.
func Active(f Finding) bool {
	return f.Severity != policy.SevOff && f.Severity != ""
}

// Dedupe drops the findings that repeat an earlier one: the same code,
// place (file, line, column or target), object (table, column), digest and
// message.
func Dedupe(fs []Finding) []Finding {
	// Findings are looked up by code, place, table and digest, which tell
	// nearly all of them apart; the few that share those are told apart by
	// column and message without hashing every message.
	type place struct {
		code, file, target, table, digest string
		line, col                         int
	}
	first := make(map[place]int32, len(fs)) // the first kept finding of a place, in out
	var next []int32                        // the next kept finding of the same place, or -1
	out := fs[:0]
	for _, f := range fs {
		k := place{f.Code, f.File, f.Target, f.Table, f.Digest, f.Line, f.Column}
		at, seen := first[k]
		if !seen {
			first[k] = int32(len(out))
		} else {
			last, repeat := chainFind(next, at, func(g int32) bool { return sameObject(&out[g], &f) })
			if repeat {
				continue
			}
			next[last] = int32(len(out))
		}
		if next == nil {
			next = make([]int32, 0, len(fs))
		}
		next = append(next, -1)
		out = append(out, f)
	}
	return out
}

// DedupeFile is Dedupe for the findings of one file, fs[i] for i in idx in
// the order reported: it returns the indices of those it keeps.
func DedupeFile(fs []Finding, idx []int32) []int32 {
	// Findings are chained by code and position; the rest of a place
	// (target, table, digest) is compared along the chain, which keeps the
	// map's keys small.
	type place struct {
		code      string
		line, col int
	}
	first := make(map[place]int, len(idx)) // the first kept finding of a place, in out
	next := make([]int, 0, len(idx))       // the next kept finding of the same place, or -1
	out := make([]int32, 0, len(idx))
	for _, i := range idx {
		f := &fs[i]
		k := place{f.Code, f.Line, f.Column}
		at, seen := first[k]
		if !seen {
			first[k] = len(out)
		} else {
			last, repeat := chainFind(next, at, func(g int) bool {
				o := &fs[out[g]]
				return o.Target == f.Target && o.Table == f.Table && o.Digest == f.Digest && sameObject(o, f)
			})
			if repeat {
				continue
			}
			next[last] = len(out)
		}
		next = append(next, -1)
		out = append(out, i)
	}
	return out
}

// chainFind walks the entries linked from at (next[i] is the entry after i
// of the same place, -1 the end) and reports whether one of them matches,
// else the last of them, to link a new entry after.
func chainFind[T int | int32](next []T, at T, match func(T) bool) (last T, found bool) {
	for ; ; at = next[at] {
		if match(at) {
			return at, true
		}
		if next[at] < 0 {
			return at, false
		}
	}
}

// sameObject reports whether two findings of one place name the same
// column with the same message: one repeats the other.
func sameObject(a, b *Finding) bool {
	return a.ColumnName == b.ColumnName && a.Message == b.Message
}

// Order sorts findings by file, target, line and column — where they stand
// — then by table, code, column and statement: the findings of a file in
// the order of its lines, a live target's by table. Findings that compare
// equal keep their order. A Finding is large: the sort moves indices, and
// each finding is moved once, into its place.
func Order(fs []Finding) {
	idx := make([]int32, len(fs))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(i, j int32) int { return CompareFindings(&fs[i], &fs[j]) })
	Permute(fs, idx)
}

// Permute puts fs[idx[k]] at k for every k, following the cycles of the
// permutation in place; idx is spent.
func Permute(fs []Finding, idx []int32) {
	for k := range idx {
		if idx[k] < 0 || int(idx[k]) == k {
			continue
		}
		held := fs[k]
		at := k
		for {
			from := int(idx[at])
			idx[at] = -1
			if from == k {
				fs[at] = held
				break
			}
			fs[at] = fs[from]
			at = from
		}
	}
}

// CompareFindings orders two findings as Order does. It stops at the first key
// that differs: most findings differ by file or line, and comparing every
// key of every pair (their statements' texts among them) cost more than the
// sort's moves.
func CompareFindings(a, b *Finding) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := strings.Compare(a.Target, b.Target); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Column, b.Column); c != 0 {
		return c
	}
	if c := strings.Compare(a.Table, b.Table); c != 0 {
		return c
	}
	if c := strings.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	if c := strings.Compare(a.ColumnName, b.ColumnName); c != 0 {
		return c
	}
	return strings.Compare(a.SQL, b.SQL)
}
