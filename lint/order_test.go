package lint_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/guard-sql/guard/lint"
)

// TestOrderIsAStableSort checks Order against a stable sort by the same
// keys, on findings with many ties: equal findings keep their order.
func TestOrderIsAStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 20, 21, 100, 1000} {
		fs := make([]lint.Finding, n)
		for i := range fs {
			fs[i] = lint.Finding{
				File:    fmt.Sprintf("f%d.sql", r.IntN(3)),
				Line:    r.IntN(5),
				Column:  r.IntN(2),
				Code:    fmt.Sprintf("GQ00%d", r.IntN(3)),
				Table:   []string{"", "t_a"}[r.IntN(2)],
				Message: fmt.Sprint(i), // tells ties apart after the sort
			}
		}
		want := slices.Clone(fs)
		slices.SortStableFunc(want, func(a, b lint.Finding) int {
			return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Target, b.Target),
				cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Table, b.Table),
				cmp.Compare(a.Code, b.Code), cmp.Compare(a.ColumnName, b.ColumnName), cmp.Compare(a.SQL, b.SQL))
		})
		lint.Order(fs)
		if !slices.EqualFunc(want, fs, sameFinding) {
			t.Errorf("%d findings: Order differs from a stable sort (-want +got):\n%s", n, gocmp.Diff(want, fs))
		}
	}
}

// TestDedupeKeepsFirstOfEachFinding checks Dedupe against a set of every
// key, on findings that share places, columns and messages in every mix.
func TestDedupeKeepsFirstOfEachFinding(t *testing.T) {
	type key struct {
		code, file, target, table, column, message, digest string
		line, col                                          int
	}
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(vs ...string) string { return vs[r.IntN(len(vs))] }
	for _, n := range []int{0, 1, 2, 10, 500} {
		fs := make([]lint.Finding, n)
		for i := range fs {
			fs[i] = lint.Finding{
				Code: pick("GQ002", "GS003"), File: pick("", "a.sql"), Target: pick("", "db1"),
				Table: pick("", "t_a"), ColumnName: pick("", "qty", "stock"), Message: pick("m1", "m2"),
				Digest: pick("", "d1"), Line: r.IntN(2), Column: r.IntN(2), Fix: fmt.Sprint(i),
			}
		}
		var want []lint.Finding
		seen := map[key]bool{}
		for _, f := range fs {
			k := key{f.Code, f.File, f.Target, f.Table, f.ColumnName, f.Message, f.Digest, f.Line, f.Column}
			if !seen[k] {
				seen[k] = true
				want = append(want, f)
			}
		}
		got := lint.Dedupe(slices.Clone(fs))
		if !slices.EqualFunc(want, got, sameFinding) {
			t.Errorf("%d findings: Dedupe differs from a set of keys (-want +got):\n%s", n, gocmp.Diff(want, got, cmpopts.EquateEmpty()))
		}
	}
}

// sameFinding compares the fields the order and deduplication tests set.
func sameFinding(a, b lint.Finding) bool {
	return a.Code == b.Code && a.File == b.File && a.Target == b.Target && a.Table == b.Table &&
		a.ColumnName == b.ColumnName && a.Message == b.Message && a.Digest == b.Digest &&
		a.Line == b.Line && a.Column == b.Column && a.Fix == b.Fix && a.SQL == b.SQL
}
