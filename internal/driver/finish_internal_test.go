package driver

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/lint"
)

// TestFinishIsDedupeThenOrder checks the file-by-file finish against the
// three steps it stands for, run on the whole list one after another, on
// findings of several files (a file's findings reported in several runs,
// findings without a file, statements of dynamic variants) with repeats.
func TestFinishIsDedupeThenOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(5, 6))
	c := &collector{files: map[string]*fileInfo{
		"m.xml": {hosts: map[stmtPos]hostPos{{1, 1}: {1, 1, 0}, {2, 1}: {1, 1, 0}, {3, 1}: {3, 1, 0}}},
		"a.sql": {},
	}}
	pick := func(vs ...string) string { return vs[r.IntN(len(vs))] }
	for _, n := range []int{0, 1, 2, 5, 50, 2000} {
		fs := make([]lint.Finding, n)
		for i := range fs {
			fs[i] = lint.Finding{
				File: pick("a.sql", "b.sql", "m.xml", ""), Target: pick("", "db"), Line: 1 + r.IntN(3), Column: 1,
				Code: pick("GQ002", "GQ006"), Table: pick("", "t"), ColumnName: pick("", "q"),
				Message: pick("m1", "m2"), SQL: pick("s1", "s2"), Fix: fmt.Sprint(i),
			}
		}
		// As reported in any order, and file by file in the order of the
		// files, as a run reports them (each file's put in order apart).
		byFile := slices.Clone(fs)
		slices.SortStableFunc(byFile, func(a, b lint.Finding) int { return strings.Compare(a.File, b.File) })
		for _, in := range []struct {
			what string
			fs   []lint.Finding
		}{{"in any order", fs}, {"file by file", byFile}} {
			want := dedupeVariants(c, lint.Dedupe(slices.Clone(in.fs)))
			lint.Order(want)
			got := c.finish(slices.Clone(in.fs))
			if len(want) == 0 && len(got) == 0 {
				continue
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%d findings %s: finish differs from Dedupe, dedupeVariants and Order (-want +got):\n%s", n, in.what, d)
			}
		}
	}
}

// dedupeVariants drops the findings that repeat, for another variant of the
// same statement, one kept before: the step of the whole list that finish
// takes file by file.
func dedupeVariants(c *collector, fs []lint.Finding) []lint.Finding {
	seen := map[variantKey]bool{}
	out := fs[:0]
	for _, f := range fs {
		if fi := c.files[f.File]; fi != nil && f.File != "" {
			if host, ok := fi.hosts[stmtPos{f.Line, f.Column}]; ok {
				k := variantKey{f.File, host, f.Code, f.Table, f.ColumnName}
				if seen[k] {
					continue
				}
				seen[k] = true
			}
		}
		out = append(out, f)
	}
	return out
}
