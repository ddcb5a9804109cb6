package report

import (
	"cmp"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// fleetView is the part of a live report that is about its targets: a row
// per target, worst first, and the findings of each server as a whole
// (durability: GS011, GS012), per server.
type fleetView struct {
	Targets []targetRow
	Servers []serverRow
}

// targetRow is one target: its counts by severity, or why it was not
// audited.
type targetRow struct {
	placeCount
	Server, Version string
	Failed          bool
	Reason          string
}

// serverRow is the findings of one server as a whole.
type serverRow struct {
	Server string
	// Databases counts the audited databases the server holds, as the
	// findings say; Targets names those of this run.
	Databases int
	Targets   []string
	Worst     policy.Severity
	Findings  []findingView
}

// newFleetView builds the targets' rows from l.Targets (or, when the
// caller gave none, from the findings and failures), counts each target's
// findings, and groups the findings of the PerServer rules by server.
func newFleetView(fs []lint.Finding, l *Live, perServer map[string]bool) *fleetView {
	v := &fleetView{}
	idx := map[string]int{}
	row := func(name string) *targetRow {
		i, ok := idx[name]
		if !ok {
			i = len(v.Targets)
			idx[name] = i
			v.Targets = append(v.Targets, targetRow{placeCount: placeCount{Name: name}})
		}
		return &v.Targets[i]
	}
	for _, t := range l.Targets {
		r := row(t.Name)
		r.Server, r.Version = t.Server, t.Version
	}
	for _, f := range l.Failures {
		r := row(f.Target)
		r.Failed, r.Reason = true, f.Error
	}
	servers := map[string]int{}
	for i := range fs {
		f := &fs[i]
		if f.Target == "" {
			continue // a finding of a file, not of a target
		}
		if !perServer[f.Code] {
			row(f.Target).add(f.Severity)
			continue
		}
		j, ok := servers[f.Target]
		if !ok {
			j = len(v.Servers)
			servers[f.Target] = j
			v.Servers = append(v.Servers, serverRow{Server: f.Target, Worst: f.Severity})
		}
		s := &v.Servers[j]
		s.Databases = max(s.Databases, f.Databases)
		if htmlSevRank(f.Severity) < htmlSevRank(s.Worst) {
			s.Worst = f.Severity
		}
		s.Findings = append(s.Findings, htmlView(f))
	}
	for i := range v.Servers {
		s := &v.Servers[i]
		for _, t := range v.Targets {
			if t.Server == s.Server && !t.Failed {
				s.Targets = append(s.Targets, t.Name)
			}
		}
		slices.SortStableFunc(s.Findings, func(a, b findingView) int {
			return cmp.Or(cmp.Compare(htmlSevRank(a.Severity), htmlSevRank(b.Severity)), strings.Compare(a.Code, b.Code))
		})
	}
	// Worst first: the targets not audited, then by their findings.
	slices.SortStableFunc(v.Targets, func(a, b targetRow) int {
		if a.Failed != b.Failed {
			if a.Failed {
				return -1
			}
			return 1
		}
		return worseCounts(a.placeCount, b.placeCount)
	})
	slices.SortStableFunc(v.Servers, func(a, b serverRow) int {
		return cmp.Or(cmp.Compare(htmlSevRank(a.Worst), htmlSevRank(b.Worst)), strings.Compare(a.Server, b.Server))
	})
	return v
}
