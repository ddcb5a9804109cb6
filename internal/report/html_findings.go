package report

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// findingsPage is the html report of guard lint and guard audit
// (html/findings.tmpl): a summary, the targets of a live run, then the
// findings grouped by severity, rule and file.
type findingsPage struct {
	htmlPage
	Live    bool
	Summary lint.Summary
	// Total counts the findings; Audited and Failed the targets.
	Total, Audited, Failed int
	Hidden, Stale          int // by the baseline
	ByCode                 []codeCount
	ByTable                []placeCount
	// MoreTables counts the tables ByTable leaves out.
	MoreTables int
	// Worst are the files (lint) or targets (audit) with the most severe
	// findings; WorstOf says which.
	Worst   []placeCount
	WorstOf string
	Groups  []severityGroup
	Fleet   *fleetView
}

// codeCount is one row of the counts by code.
type codeCount struct {
	Code, Name, Anchor string
	Severity           policy.Severity
	Count              int
}

// placeCount counts the findings of one file, target or table by
// severity.
type placeCount struct {
	Name                        string
	Error, Warning, Info, Other int
}

func (p *placeCount) add(s policy.Severity) {
	switch s {
	case policy.SevError:
		p.Error++
	case policy.SevWarning:
		p.Warning++
	case policy.SevInfo:
		p.Info++
	default:
		p.Other++
	}
}

// Total is the count of every severity.
func (p placeCount) Total() int { return p.Error + p.Warning + p.Info + p.Other }

// worseCounts orders places worst first: more errors, then warnings, then infos,
// then by name.
func worseCounts(a, b placeCount) int {
	return cmp.Or(-cmp.Compare(a.Error, b.Error), -cmp.Compare(a.Warning, b.Warning),
		-cmp.Compare(a.Info, b.Info), -cmp.Compare(a.Other, b.Other), strings.Compare(a.Name, b.Name))
}

// severityGroup is the findings of one severity, by rule.
type severityGroup struct {
	Severity policy.Severity
	Title    string
	Count    int
	Rules    []ruleGroup
}

// ruleGroup is the findings of one rule, by file or target, with the
// rule's explanation.
type ruleGroup struct {
	Code, Name, Anchor string
	Summary, Doc, Fix  string
	Count              int
	Places             []placeGroup
}

// placeGroup is the findings of one rule in one file or on one target.
type placeGroup struct {
	Name     string
	Findings []findingView
}

// findingView is one finding as the page prints it.
type findingView struct {
	Code     string
	Severity policy.Severity
	// Where is the position in the file ("line 12, column 9, to line 14"),
	// or "" for a finding without a line.
	Where                  string
	Table, Column          string
	Message, Ran, Fix, SQL string
	Digest                 string
	FirstSeen, LastSeen    string
	Settings               []htmlSetting
}

type htmlSetting struct{ Name, Value string }

// maxTables is how many tables the counts by table list.
const maxTables = 20

// maxWorst is how many files or targets the worst list holds.
const maxWorst = 10

// htmlSevOrder is the order of the groups; any other severity follows.
var htmlSevOrder = []policy.Severity{policy.SevError, policy.SevWarning, policy.SevInfo}

func htmlSevRank(s policy.Severity) int {
	if i := slices.Index(htmlSevOrder, s); i >= 0 {
		return i
	}
	return len(htmlSevOrder)
}

var htmlSevTitles = map[policy.Severity]string{
	policy.SevError: "Errors", policy.SevWarning: "Warnings", policy.SevInfo: "Infos",
}

// writeHTML prints the findings page of res.
func writeHTML(buf *bytes.Buffer, res *lint.Result, opts Options) error {
	return htmlPages().ExecuteTemplate(buf, "findings", newFindingsPage(res, opts))
}

func newFindingsPage(res *lint.Result, opts Options) *findingsPage {
	title := "guard lint report"
	if opts.Live != nil {
		title = "guard audit report"
	}
	p := &findingsPage{htmlPage: newHTMLPage(title, opts), Live: opts.Live != nil, Summary: res.Summary, Total: len(res.Findings), WorstOf: "files"}
	if b := res.Baseline; b != nil {
		p.Hidden = b.Hidden
		for _, e := range b.Stale {
			p.Stale += max(e.Count, 1)
		}
	}
	rules := map[string]RuleInfo{}
	perServer := map[string]bool{}
	for _, r := range opts.Rules {
		rules[r.Code] = r
		perServer[r.Code] = r.PerServer
	}
	p.ByCode = htmlByCode(res.Findings, rules)
	p.ByTable, p.MoreTables = htmlByTable(res.Findings)
	p.Groups = groupFindings(res.Findings, rules)
	if l := opts.Live; l != nil {
		p.WorstOf = "targets"
		p.Audited, p.Failed = l.Audited, len(l.Failures)
		p.Fleet = newFleetView(res.Findings, l, perServer)
		for _, t := range p.Fleet.Targets {
			if len(p.Worst) < maxWorst && (t.Failed || t.Total() > 0) {
				p.Worst = append(p.Worst, t.placeCount)
			}
		}
	} else {
		p.Worst = htmlWorstFiles(res.Findings)
	}
	return p
}

// anchor is the id of a rule's section in a severity's group.
func htmlAnchor(sev policy.Severity, code string) string {
	return sevClass(sev) + "-" + code
}

// htmlByCode counts the findings of each code and severity, most first.
func htmlByCode(fs []lint.Finding, rules map[string]RuleInfo) []codeCount {
	type key struct {
		code string
		sev  policy.Severity
	}
	counts := map[key]int{}
	for i := range fs {
		counts[key{fs[i].Code, fs[i].Severity}]++
	}
	out := make([]codeCount, 0, len(counts))
	for k, n := range counts {
		name := rules[k.code].Name
		if name == "" {
			name = findingRule(fs, k.code)
		}
		out = append(out, codeCount{Code: k.code, Name: name, Anchor: htmlAnchor(k.sev, k.code), Severity: k.sev, Count: n})
	}
	slices.SortFunc(out, func(a, b codeCount) int {
		return cmp.Or(cmp.Compare(htmlSevRank(a.Severity), htmlSevRank(b.Severity)), -cmp.Compare(a.Count, b.Count), strings.Compare(a.Code, b.Code))
	})
	return out
}

// findingRule is the rule a finding of code names, for a code the registry
// given does not describe.
func findingRule(fs []lint.Finding, code string) string {
	for i := range fs {
		if fs[i].Code == code && fs[i].Rule != "" {
			return fs[i].Rule
		}
	}
	return ""
}

// htmlByTable counts the findings of each table, worst first, and how
// many tables are past maxTables.
func htmlByTable(fs []lint.Finding) ([]placeCount, int) {
	return htmlCountBy(fs, func(f *lint.Finding) string { return f.Table }, maxTables)
}

// htmlWorstFiles are the files with the worst findings.
func htmlWorstFiles(fs []lint.Finding) []placeCount {
	out, _ := htmlCountBy(fs, func(f *lint.Finding) string { return f.File }, maxWorst)
	return out
}

// htmlCountBy counts the findings by the name key gives them (those it gives
// "" are left out), worst first, at most limit, and how many were cut.
func htmlCountBy(fs []lint.Finding, key func(*lint.Finding) string, limit int) ([]placeCount, int) {
	idx := map[string]int{}
	var out []placeCount
	for i := range fs {
		name := key(&fs[i])
		if name == "" {
			continue
		}
		j, ok := idx[name]
		if !ok {
			j = len(out)
			idx[name] = j
			out = append(out, placeCount{Name: name})
		}
		out[j].add(fs[i].Severity)
	}
	slices.SortFunc(out, worseCounts)
	if len(out) > limit {
		return out[:limit], len(out) - limit
	}
	return out, 0
}

// groupFindings groups fs by severity, rule and place, each in order: the
// severities worst first, the rules by code, the places by name and the
// findings as the run ordered them.
func groupFindings(fs []lint.Finding, rules map[string]RuleInfo) []severityGroup {
	sorted := make([]*lint.Finding, len(fs))
	for i := range fs {
		sorted[i] = &fs[i]
	}
	slices.SortStableFunc(sorted, func(a, b *lint.Finding) int {
		return cmp.Or(cmp.Compare(htmlSevRank(a.Severity), htmlSevRank(b.Severity)), strings.Compare(string(a.Severity), string(b.Severity)),
			strings.Compare(a.Code, b.Code), strings.Compare(htmlPlace(a), htmlPlace(b)))
	})
	var groups []severityGroup
	for _, f := range sorted {
		if n := len(groups); n == 0 || groups[n-1].Severity != f.Severity {
			title := htmlSevTitles[f.Severity]
			if title == "" {
				title = "Severity " + string(f.Severity)
			}
			groups = append(groups, severityGroup{Severity: f.Severity, Title: title})
		}
		g := &groups[len(groups)-1]
		g.Count++
		if n := len(g.Rules); n == 0 || g.Rules[n-1].Code != f.Code {
			r := rules[f.Code]
			name := cmp.Or(r.Name, f.Rule)
			g.Rules = append(g.Rules, ruleGroup{Code: f.Code, Name: name, Anchor: htmlAnchor(f.Severity, f.Code), Summary: r.Summary, Doc: r.Doc, Fix: r.Fix})
		}
		r := &g.Rules[len(g.Rules)-1]
		r.Count++
		if n := len(r.Places); n == 0 || r.Places[n-1].Name != htmlPlace(f) {
			r.Places = append(r.Places, placeGroup{Name: htmlPlace(f)})
		}
		pl := &r.Places[len(r.Places)-1]
		pl.Findings = append(pl.Findings, htmlView(f))
	}
	return groups
}

// htmlPlace is the file of a finding, else where it stands (placeOf).
func htmlPlace(f *lint.Finding) string {
	if f.File != "" {
		return f.File
	}
	return placeOf(f)
}

func htmlView(f *lint.Finding) findingView {
	v := findingView{
		Code: f.Code, Severity: f.Severity, Table: f.Table, Column: f.ColumnName,
		Message: f.Message, Ran: strings.TrimSpace(ranText(f)), Fix: f.Fix, SQL: f.SQL,
		Digest: f.Digest, FirstSeen: f.FirstSeen, LastSeen: f.LastSeen,
	}
	if f.Line > 0 {
		v.Where = "line " + strconv.Itoa(f.Line)
		if f.Column > 0 {
			v.Where += ", column " + strconv.Itoa(f.Column)
		}
		if f.EndLine > f.Line {
			v.Where += ", to line " + strconv.Itoa(f.EndLine)
		}
	}
	names := make([]string, 0, len(f.Settings))
	for name := range f.Settings {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v.Settings = append(v.Settings, htmlSetting{name, f.Settings[name]})
	}
	return v
}
