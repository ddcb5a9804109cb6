package driver

import (
	"fmt"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// collector gathers findings and applies guard:ignore suppressions.
type collector struct {
	files    map[string]*fileInfo
	findings []lint.Finding
	replay   []lint.Finding
}

type fileInfo struct {
	supps []stmt.Suppression
	// anchor maps a statement's first line to the line of the construct
	// holding it (Go call, Java annotation, XML element).
	anchor map[int]int
	// hosts maps the start of a statement of a dynamic variant to its
	// element (see variantHosts).
	hosts map[stmtPos]hostPos
}

// anchors is what the collector needs to know of a file's statements.
type anchors struct {
	lines map[int]int
	hosts map[stmtPos]hostPos
}

// addFile records a file's suppressions and the anchors of its statements
// (see anchorsOf). The collector takes a's maps over: a file seen for the
// first time keeps them, instead of a copy of one entry per statement.
func (c *collector) addFile(f *hostcode.File, a anchors) {
	if c.files == nil {
		c.files = map[string]*fileInfo{}
	}
	fi := c.files[f.Path]
	if fi == nil {
		fi = &fileInfo{anchor: a.lines, hosts: a.hosts}
		if fi.anchor == nil {
			fi.anchor = map[int]int{}
		}
		if fi.hosts == nil {
			fi.hosts = map[stmtPos]hostPos{}
		}
		c.files[f.Path] = fi
		fi.supps = append(fi.supps, f.Suppressions...)
		return
	}
	fi.supps = append(fi.supps, f.Suppressions...)
	for line, anchor := range a.lines {
		fi.anchor[line] = anchor
	}
	for p, host := range a.hosts {
		fi.hosts[p] = host
	}
}

// anchorsOf maps each statement of f's stmts, by its first line, to the
// line of the construct holding it, where a guard:ignore comment may also
// stand, and the statements of dynamic variants to their element. Only a
// suppression reads the lines: a file without one gets none.
func anchorsOf(f *hostcode.File, stmts []*lint.Statement) anchors {
	a := anchors{hosts: variantHosts(stmts)}
	if len(f.Suppressions) == 0 {
		return a
	}
	a.lines = make(map[int]int, len(stmts))
	for _, st := range stmts {
		if st.Fragment != nil {
			a.lines[st.Line] = st.Fragment.Line
		}
	}
	return a
}

func (c *collector) add(f lint.Finding) { c.findings = append(c.findings, f) }

// suppressed reports whether a valid suppression covers f: a guard:ignore of
// f's code on the line before the statement or before its host construct,
// or on a line of the run of guard:ignore lines that ends there. One
// statement may be several rules' finding (an ADD CHECK is GM003's and
// GM007's), and a comment names one code: the lines stack.
func (c *collector) suppressed(f lint.Finding) bool {
	fi := c.files[f.File]
	if fi == nil || f.File == "" {
		return false
	}
	if fi.suppressedAbove(f.Code, f.Line) {
		return true
	}
	anchor, hasAnchor := fi.anchor[f.Line]
	return hasAnchor && fi.suppressedAbove(f.Code, anchor)
}

// suppressedAbove reports whether a valid suppression of code stands in the
// run of guard:ignore lines right above line.
func (fi *fileInfo) suppressedAbove(code string, line int) bool {
	for above := line - 1; above > 0; above-- {
		stands := false
		for _, s := range fi.supps {
			if s.Line != above {
				continue
			}
			if s.Code == code && s.Reason != "" {
				return true
			}
			stands = true
		}
		if !stands {
			return false
		}
	}
	return false
}

// result applies suppressions and severities, adds the findings about
// invalid suppressions, joins the findings of one cause, deduplicates (also
// across the variants of a dynamic statement) and sorts.
func (c *collector) result(pol *policy.Policy, rules []*lint.Rule) *lint.Result {
	byCode := map[string]*lint.Rule{}
	for _, r := range rules {
		byCode[r.Code] = r
	}
	// The collector is spent: its findings are extended and filtered in
	// place, without a copy of every finding of the run.
	all := c.findings
	c.findings = nil
	for _, f := range c.replay {
		if r := byCode[f.Code]; r != nil {
			f.Rule, f.Fix = r.Name, r.Fix
			f.Severity = pol.Severity(f.Code, r.Severity)
		}
		all = append(all, f)
	}
	for path, fi := range c.files {
		for _, s := range fi.supps {
			r := byCode[s.Code]
			switch {
			case r == nil:
				all = append(all, lint.Finding{Code: "GQ009", Rule: ruleName(byCode, "GQ009"), Severity: policy.SevError,
					File: path, Line: s.Line, Column: s.Col, EndLine: s.Line,
					Message: fmt.Sprintf("guard:ignore names unknown rule code %q; nothing is suppressed", s.Code),
					Fix:     "name a code listed by `guard rules`, then the reason"})
			case s.Reason == "":
				all = append(all, lint.Finding{Code: s.Code, Rule: r.Name, Severity: policy.SevError,
					File: path, Line: s.Line, Column: s.Col, EndLine: s.Line,
					Message: fmt.Sprintf("guard:ignore %s has no reason; the suppression is ignored", s.Code),
					Fix:     fmt.Sprintf("say why after the code: guard:ignore %s <reason>", s.Code)})
			}
		}
	}
	// The findings of statements that one call of host code makes are
	// one finding, at the call (lint.Cause).
	all = lint.JoinCauses(all, byCode, func(f lint.Finding) bool { return !lint.Active(f) || c.suppressed(f) })
	kept := all[:0]
	for i := range all {
		if !lint.Active(all[i]) || c.suppressed(all[i]) {
			continue
		}
		kept = append(kept, all[i])
	}
	if kept == nil {
		kept = []lint.Finding{}
	}
	return &lint.Result{Findings: c.finish(kept)}
}

func ruleName(byCode map[string]*lint.Rule, code string) string {
	if r := byCode[code]; r != nil {
		return r.Name
	}
	return ""
}

// countSeverities fills the summary's error, warning and info counts.
func countSeverities(res *lint.Result) {
	res.Summary.Error, res.Summary.Warning, res.Summary.Info = 0, 0, 0
	for _, f := range res.Findings {
		switch f.Severity {
		case policy.SevError:
			res.Summary.Error++
		case policy.SevWarning:
			res.Summary.Warning++
		case policy.SevInfo:
			res.Summary.Info++
		}
	}
}
