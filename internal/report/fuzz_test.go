package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// FuzzWrite feeds arbitrary text through every format and checks what each
// promises: json and sarif stay valid JSON (and json gives the finding back),
// github stays one workflow command per line, text never emits a raw control
// character, sarif uris parse, and html holds the findings as text, never a
// script.
func FuzzWrite(f *testing.F) {
	f.Add("internal/dao/stock.go", "", "t_inventory", "inventory - ? has no guard", "UPDATE t SET c = c - 1", "error", 12, 9, 14)
	f.Add("", "db.example.com:3306/shop", "t_inventory", "3 rows, already: negative", "", "warning", 0, 0, 0)
	f.Add("my dir/a,b:c%.sql", "", "", "100%\r\nnext ünïcødé 库存", "UPDATE t\n\tSET x = 1", "info", 1, 0, 1)
	f.Add("a\x1b.sql", "[::1]:3306/db", "t", "m\x1b[2J\x9b\xff", strings.Repeat("é", 300), "off", -1, -5, -9)
	f.Add("C:\\work\\x.sql", "", "", "", "", "", 3, 1, 2)
	f.Add("/abs/x.sql", "", "", "::error::%0A", "", "bogus", 1, 1, 1)
	f.Fuzz(func(t *testing.T, file, target, table, msg, sql, sev string, line, col, endLine int) {
		fd := lint.Finding{
			Code: "GQ002", Rule: "unguarded-decrement", Severity: policy.Severity(sev),
			File: file, Line: line, Column: col, EndLine: endLine,
			Target: target, Table: table, ColumnName: "c",
			Message: msg, Fix: msg, SQL: sql,
		}
		res := &lint.Result{Findings: []lint.Finding{fd, fd}, Summary: lint.Summary{Error: 2}}
		outs := map[string]*bytes.Buffer{}
		for _, format := range Formats() {
			var buf bytes.Buffer
			if err := Write(&buf, format, res, Options{Version: "v", Rules: []RuleInfo{{Code: "GQ002", Doc: msg}}}); err != nil {
				t.Fatalf("Write(%s): %v", format, err)
			}
			outs[format] = &buf
		}

		// Generic decoding: lint.Severity refuses unknown values, and the
		// writer must not care.
		var doc struct{ Findings []map[string]any }
		if err := json.Unmarshal(outs[FormatJSON].Bytes(), &doc); err != nil {
			t.Fatalf("json output does not decode: %v", err)
		}
		if len(doc.Findings) != 2 {
			t.Fatalf("json has %d findings, want 2", len(doc.Findings))
		}
		if allValid(file, target, table, msg, sql, sev) {
			want := map[string]any{
				"code": "GQ002", "rule": "unguarded-decrement", "severity": sev,
				"file": file, "line": float64(line), "column": float64(col), "end_line": float64(endLine),
				"target": target, "table": table, "column_name": "c", "message": msg, "fix": msg, "sql": sql,
			}
			if diff := cmp.Diff(want, doc.Findings[0]); diff != "" {
				t.Errorf("json round trip (-want +got):\n%s", diff)
			}
		}

		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine, StartColumn, EndLine int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal(outs[FormatSARIF].Bytes(), &log); err != nil {
			t.Fatalf("sarif output does not decode: %v", err)
		}
		for _, r := range log.Runs[0].Results {
			pl := r.Locations[0].PhysicalLocation
			if _, err := url.Parse(pl.ArtifactLocation.URI); err != nil {
				t.Errorf("sarif uri %q: %v", pl.ArtifactLocation.URI, err)
			}
			if pl.Region.StartLine < 1 || pl.Region.StartColumn < 0 || pl.Region.EndLine < 0 {
				t.Errorf("sarif region %+v out of range", pl.Region)
			}
		}

		var issues []gitlabIssue
		if err := json.Unmarshal(outs[FormatGitLab].Bytes(), &issues); err != nil {
			t.Fatalf("gitlab output does not decode: %v", err)
		}
		if len(issues) != 2 || issues[0].Fingerprint == issues[1].Fingerprint || issues[0].Location.Lines.Begin < 1 {
			t.Errorf("gitlab issues %+v: want two, each its own fingerprint, lines from 1", issues)
		}

		gh := outs[FormatGitHub].String()
		if strings.Count(gh, "\n") != 2 || strings.ContainsRune(gh, '\r') {
			t.Errorf("github output is not two command lines: %q", gh)
		}

		page := outs[FormatHTML].String()
		if strings.Contains(strings.ToLower(page), "<script") {
			t.Fatalf("html output holds a script element: %q", page)
		}
		if n := strings.Count(page, `<li class="finding"`); n != 2 {
			t.Errorf("html output has %d findings, want 2", n)
		}

		for _, r := range outs[FormatText].String() {
			if r != '\n' && r != '\t' && needsEscape(r) {
				t.Fatalf("text output carries control character %U: %q", r, outs[FormatText].String())
			}
		}
	})
}

// allValid reports whether every s is valid UTF-8; encoding/json replaces
// invalid bytes, so only valid text round-trips exactly.
func allValid(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}
