package report

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// MarkdownLimit is the most characters --format markdown writes, counted
// as GitHub counts a comment's body (UTF-16 code units): a pull request
// comment holds at most 65,536, and the poster adds a marker line.
const MarkdownLimit = 65000

// markdownRows is the most findings the table lists; the others are
// counted below it.
const markdownRows = 100

// markdownCell is how many characters of a message a cell keeps.
const markdownCell = 600

// mdReserve is the room kept for each table still to come once a table
// is cut: its heading and the line that counts what it left out.
const mdReserve = 400

// writeMarkdown prints the report as GitHub Flavored Markdown sized for a
// pull request comment or a job summary: a title with the counts by
// severity, the count of every code by severity, for a live report the
// targets that were not audited and (for a fleet) the counts of each
// target, and the findings, most severe first. A table that does not fit in
// limit characters, or the findings past markdownRows, is cut, and a line
// under it counts what it left out. Every cell is escaped: file names, SQL
// and server messages are text from elsewhere.
func writeMarkdown(buf *bytes.Buffer, res *lint.Result, opts Options, limit int) {
	w := &mdWriter{limit: limit}
	command := "guard lint"
	if opts.Live != nil {
		command = "guard audit"
	}
	w.add("### " + command + ": " + markdownTitle(res, opts.Live) + "\n\n")
	w.add(markdownScope(res, opts.Live) + "\n")

	codes := countByCode(res.Findings)
	if len(codes) > 0 {
		w.add("\n| code | rule | error | warning | info |\n|:--|:--|--:|--:|--:|\n")
		var all sevCount
		for _, c := range codes {
			w.add("| " + mdCell(c.key) + " | " + mdCell(c.rule) + " | " + c.counts.cells() + " |\n")
			all.addCount(c.counts)
		}
		w.add("| **all** | | **" + strconv.Itoa(all.error) + "** | **" + strconv.Itoa(all.warning) + "** | **" + strconv.Itoa(all.info) + "** |\n")
	}

	// The tables that may be cut, in the order they are given room.
	var tables []mdTable
	if l := opts.Live; l != nil && len(l.Failures) > 0 {
		t := mdTable{heading: "Not audited", header: "| target | why |\n|:--|:--|\n", noun: "target", plural: "targets"}
		for _, f := range l.Failures {
			t.rows = append(t.rows, "| "+mdCell(truncate(f.Target, markdownCell))+" | "+mdCell(truncate(f.Error, markdownCell))+" |\n")
		}
		tables = append(tables, t)
	}
	if l := opts.Live; l != nil {
		if targets := countByTarget(res.Findings); len(targets)+len(l.Failures) > 1 && len(targets) > 0 {
			t := mdTable{heading: "By target, most severe first", header: "| target | error | warning | info |\n|:--|--:|--:|--:|\n", noun: "target", plural: "targets"}
			for _, c := range targets {
				t.rows = append(t.rows, "| "+mdCell(truncate(c.key, markdownCell))+" | "+c.counts.cells()+" |\n")
			}
			tables = append(tables, t)
		}
	}
	if len(res.Findings) > 0 {
		fs := bySeverity(res.Findings)
		t := mdTable{heading: "Findings, most severe first", header: "| where | code | severity | message |\n|:--|:--|:--|:--|\n",
			noun: "finding", plural: "findings", max: markdownRows, command: command}
		for _, f := range fs {
			t.rows = append(t.rows, "| "+mdCell(truncate(markdownPlace(f), markdownCell))+" | "+mdCell(f.Code)+" | "+mdCell(string(f.Severity))+" | "+
				mdCell(truncate(f.Message+ranText(f), markdownCell))+" |\n")
			t.severities = append(t.severities, f.Severity)
		}
		tables = append(tables, t)
	}
	for i, t := range tables {
		w.table(t, len(tables)-i)
	}
	buf.WriteString(w.b.String())
}

// markdownTitle is "N errors, N warnings, N infos", "no findings", and
// for a live report the targets that were not audited.
func markdownTitle(res *lint.Result, live *Live) string {
	s := res.Summary
	title := "no findings"
	if len(res.Findings) > 0 || s.Error+s.Warning+s.Info > 0 {
		title = plural(s.Error, "error", "errors") + ", " + plural(s.Warning, "warning", "warnings") + ", " + plural(s.Info, "info", "infos")
	}
	if live != nil && len(live.Failures) > 0 {
		if live.Audited == 0 && len(res.Findings) == 0 {
			return "nothing audited, " + plural(len(live.Failures), "target", "targets") + " failed"
		}
		title += "; " + plural(len(live.Failures), "target", "targets") + " not audited"
	}
	return title
}

// markdownScope says what the run read, as the text summary line does.
func markdownScope(res *lint.Result, live *Live) string {
	s := res.Summary
	where := "In " + plural(s.Files, "file", "files")
	if live != nil {
		where = "On " + plural(live.Audited, "target", "targets") + " audited"
	}
	return fmt.Sprintf("%s (%s, %s).", where, plural(s.Statements, "statement", "statements"), plural(s.Tables, "table", "tables"))
}

// markdownPlace is FILE:LINE, or the target of a live finding.
func markdownPlace(f *lint.Finding) string {
	if f.File == "" {
		return placeOf(f)
	}
	if f.Line > 0 {
		return f.File + ":" + strconv.Itoa(f.Line)
	}
	return f.File
}

// bySeverity is the findings, the most severe first and otherwise in the
// order of the run (file, line, column, code).
func bySeverity(fs []lint.Finding) []*lint.Finding {
	out := make([]*lint.Finding, len(fs))
	for i := range fs {
		out[i] = &fs[i]
	}
	slices.SortStableFunc(out, func(a, b *lint.Finding) int { return b.Severity.Rank() - a.Severity.Rank() })
	return out
}

// sevCount counts findings by severity.
type sevCount struct{ error, warning, info int }

func (c *sevCount) add(s policy.Severity) {
	switch s {
	case policy.SevError:
		c.error++
	case policy.SevWarning:
		c.warning++
	case policy.SevInfo:
		c.info++
	}
}

func (c *sevCount) addCount(o sevCount) {
	c.error += o.error
	c.warning += o.warning
	c.info += o.info
}

// cells is the three counts as table cells.
func (c sevCount) cells() string {
	return strconv.Itoa(c.error) + " | " + strconv.Itoa(c.warning) + " | " + strconv.Itoa(c.info)
}

// text is "N errors, N warnings" without the severities counted zero.
func (c sevCount) text() string {
	var parts []string
	for _, p := range []struct {
		n         int
		one, many string
	}{{c.error, "error", "errors"}, {c.warning, "warning", "warnings"}, {c.info, "info", "infos"}} {
		if p.n > 0 {
			parts = append(parts, plural(p.n, p.one, p.many))
		}
	}
	return strings.Join(parts, ", ")
}

// keyCount is the counts of one code or target.
type keyCount struct {
	key, rule string
	counts    sevCount
}

// countByCode counts the findings of each code, in code order.
func countByCode(fs []lint.Finding) []keyCount {
	idx := map[string]int{}
	var out []keyCount
	for i := range fs {
		f := &fs[i]
		k, ok := idx[f.Code]
		if !ok {
			k = len(out)
			idx[f.Code] = k
			out = append(out, keyCount{key: f.Code, rule: f.Rule})
		}
		out[k].counts.add(f.Severity)
	}
	slices.SortFunc(out, func(a, b keyCount) int { return strings.Compare(a.key, b.key) })
	return out
}

// countByTarget counts the live findings of each target, the target with
// the most errors first (then warnings, then infos, then by name).
func countByTarget(fs []lint.Finding) []keyCount {
	idx := map[string]int{}
	var out []keyCount
	for i := range fs {
		f := &fs[i]
		if f.File != "" {
			continue
		}
		place := placeOf(f)
		k, ok := idx[place]
		if !ok {
			k = len(out)
			idx[place] = k
			out = append(out, keyCount{key: place})
		}
		out[k].counts.add(f.Severity)
	}
	slices.SortFunc(out, func(a, b keyCount) int {
		return cmp.Or(cmp.Compare(b.counts.error, a.counts.error), cmp.Compare(b.counts.warning, a.counts.warning),
			cmp.Compare(b.counts.info, a.counts.info), strings.Compare(a.key, b.key))
	})
	return out
}

// mdTable is a table of the report that may be cut.
type mdTable struct {
	heading, header string
	rows            []string
	// noun and plural name a row, for the line that counts the rows left out.
	noun, plural string
	// max bounds the rows listed (0: no bound but the size).
	max int
	// severities are the rows' severities, when the rows are findings, so
	// that the line counts the findings left out by severity; command is
	// the command that lists them all.
	severities []policy.Severity
	command    string
}

// mdWriter builds the document and counts its characters as GitHub does.
type mdWriter struct {
	b     strings.Builder
	n     int
	limit int
}

func (w *mdWriter) add(s string) {
	w.b.WriteString(s)
	w.n += mdLen(s)
}

// table writes t's heading, header and the rows that fit, keeping room for
// the heading and count line of each table from t on (tables of them).
func (w *mdWriter) table(t mdTable, tables int) {
	w.add("\n#### " + t.heading + "\n\n")
	budget := w.limit - tables*mdReserve
	shown := 0
	if w.n+mdLen(t.header) <= budget {
		w.add(t.header)
		for _, row := range t.rows {
			if (t.max > 0 && shown == t.max) || w.n+mdLen(row) > budget {
				break
			}
			w.add(row)
			shown++
		}
	}
	left := len(t.rows) - shown
	if left == 0 {
		return
	}
	line := "\n" + plural(left, "more "+t.noun, "more "+t.plural) + " not shown"
	if t.severities != nil {
		var c sevCount
		for _, s := range t.severities[shown:] {
			c.add(s)
		}
		if s := c.text(); s != "" {
			line += " (" + s + ")"
		}
	}
	if t.command != "" {
		line += "; `" + t.command + "` lists every one"
	}
	w.add(line + ".\n")
}

// mdLen is the length of s in UTF-16 code units, the characters GitHub
// counts against a comment's limit.
func mdLen(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// mdCell escapes text for a table cell: what would end the cell (|, a line
// break), start markup (backticks, emphasis, links, strike-through, math),
// open HTML (<, >, &) or notify someone (@name) is written so that it shows
// as the character it is; control characters, invalid UTF-8 and the
// invisible direction overrides of a "trojan source" file name are spelt
// out as the text format spells them.
func mdCell(s string) string {
	s = printable(unixLines(s))
	for _, r := range s {
		if isBidiControl(r) {
			s = spellBidi(s)
			break
		}
	}
	return mdEscaper.Replace(s)
}

var mdEscaper = strings.NewReplacer(
	"\n", "<br>", "\t", " ",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`, "~", `\~`, "$", `\$`,
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	// A word joiner after @ keeps GitHub from reading @name as a mention
	// (a MySQL user variable, a Java annotation) and notifying that user.
	"@", "@\u2060",
)

// isBidiControl reports whether r changes the direction of the text around
// it without showing itself.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// spellBidi writes each direction control of s as \uXXXX.
func spellBidi(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if isBidiControl(r) {
			fmt.Fprintf(&sb, `\u%04x`, r)
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
