package driver

import (
	"slices"
	"strings"

	"github.com/guard-sql/guard/lint"
)

// finish is Order(c.dedupeVariants(Dedupe(fs))) file by file, on the pool
// of workers. Each of the three steps keeps or compares the findings of one
// file only (the file is part of every key, and Order's first one), so the
// findings of each file are deduplicated and sorted on their own, and the
// files joined in the order of their names: the run's last steps keep every
// core busy instead of one.
func (c *collector) finish(fs []lint.Finding) []lint.Finding {
	// The findings of a file, in the order they were reported; a run
	// reports a file's findings together, so the map is asked once a run.
	groupOf := map[string]int{}
	var groups [][]int32
	for i, g := 0, -1; i < len(fs); i++ {
		if g < 0 || fs[i].File != fs[i-1].File {
			k, ok := groupOf[fs[i].File]
			if !ok {
				k = len(groups)
				groupOf[fs[i].File] = k
				groups = append(groups, nil)
			}
			g = k
		}
		groups[g] = append(groups[g], int32(i))
	}
	keep := make([]bool, len(fs))
	forEach(len(groups), noState, func(_ struct{}, k int) {
		for _, i := range c.dedupeFile(fs, groups[k]) {
			keep[i] = true
		}
	})
	// Drop the repeats, keeping the order, and renumber the groups.
	at := make([]int32, len(fs))
	n := 0
	for i := range fs {
		if keep[i] {
			fs[n], at[i] = fs[i], int32(n)
			n++
		}
	}
	fs = fs[:n]
	forEach(len(groups), noState, func(_ struct{}, k int) {
		g := groups[k][:0]
		for _, i := range groups[k] {
			if keep[i] {
				g = append(g, at[i])
			}
		}
		slices.SortStableFunc(g, func(i, j int32) int { return lint.CompareFindings(&fs[i], &fs[j]) })
		groups[k] = g
	})
	slices.SortFunc(groups, func(a, b []int32) int {
		if len(a) == 0 || len(b) == 0 {
			return len(a) - len(b)
		}
		return strings.Compare(fs[a[0]].File, fs[b[0]].File)
	})
	if permuteGroups(fs, groups) {
		return fs
	}
	idx := make([]int32, 0, n)
	for _, g := range groups {
		idx = append(idx, g...)
	}
	lint.Permute(fs, idx)
	return fs
}

// permuteGroups puts the findings in the order of groups, each group's
// in its order, when every group's findings already stand where the group
// goes (a run reports file by file, in the order of the files): each group
// is then put in order apart, on every core. False, with fs untouched,
// when they do not.
func permuteGroups(fs []lint.Finding, groups [][]int32) bool {
	start := make([]int32, len(groups))
	at := int32(0)
	for k, g := range groups {
		start[k] = at
		for _, i := range g {
			if i < at || i >= at+int32(len(g)) {
				return false
			}
		}
		at += int32(len(g))
	}
	forEach(len(groups), noState, func(_ struct{}, k int) {
		g := groups[k]
		for j := range g {
			g[j] -= start[k]
		}
		lint.Permute(fs[start[k]:start[k]+int32(len(g))], g)
	})
	return true
}

// dedupeFile returns the indices of the findings of one file (idx, in the
// order reported) that Dedupe and then dedupeVariants keep.
func (c *collector) dedupeFile(fs []lint.Finding, idx []int32) []int32 {
	out := lint.DedupeFile(fs, idx)
	// The variants of a dynamic statement (see dedupeVariants).
	fi := c.files[fs[idx[0]].File]
	if fi == nil || fs[idx[0]].File == "" || len(fi.hosts) == 0 {
		return out
	}
	seen := map[variantKey]bool{}
	kept := out[:0]
	for _, i := range out {
		f := &fs[i]
		if host, ok := fi.hosts[stmtPos{f.Line, f.Column}]; ok {
			k := variantKey{f.File, host, f.Code, f.Table, f.ColumnName}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		kept = append(kept, i)
	}
	return kept
}
