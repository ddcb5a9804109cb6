package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// decodeSARIF writes res as sarif and decodes it generically, as a consumer
// that knows nothing of guard's Go types would.
func decodeSARIF(t *testing.T, res *lint.Result, opts Options) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, FormatSARIF, res, opts); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("sarif is not JSON: %v", err)
	}
	return doc
}

// dig walks a decoded JSON document: strings index objects, ints arrays.
func dig(t *testing.T, v any, steps ...any) any {
	t.Helper()
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %q: %T is not an object", s, v)
			}
			if v, ok = m[s]; !ok {
				t.Fatalf("missing required property %q in %v", s, m)
			}
		case int:
			a, ok := v.([]any)
			if !ok || s >= len(a) {
				t.Fatalf("at [%d]: %v is not an array that long", s, v)
			}
			v = a[s]
		}
	}
	return v
}

// TestSARIFValid checks the properties SARIF 2.1.0 requires and those GitHub
// code scanning needs to show an alert: a ruleId that resolves through
// ruleIndex, a known level, a message, one physical location with a relative
// uri and startLine ≥ 1, and a partial fingerprint.
func TestSARIFValid(t *testing.T) {
	res := sampleResult()
	doc := decodeSARIF(t, res, sampleOptions())
	if got := dig(t, doc, "version"); got != "2.1.0" {
		t.Errorf("version = %v", got)
	}
	if got := dig(t, doc, "$schema"); got != "https://json.schemastore.org/sarif-2.1.0.json" {
		t.Errorf("$schema = %v", got)
	}
	if runs := dig(t, doc, "runs").([]any); len(runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(runs))
	}
	driver := dig(t, doc, "runs", 0, "tool", "driver")
	for key, want := range map[string]any{"name": "guard", "version": "1.2.3", "informationUri": "https://github.com/guard-sql/guard"} {
		if got := dig(t, driver, key); got != want {
			t.Errorf("driver.%s = %v, want %v", key, got, want)
		}
	}
	rules := dig(t, driver, "rules").([]any)
	ids := map[string]bool{}
	for i, r := range rules {
		id := dig(t, r, "id").(string)
		if ids[id] {
			t.Errorf("rule %q listed twice", id)
		}
		ids[id] = true
		level := dig(t, r, "defaultConfiguration", "level").(string)
		if !oneOf(level, "none", "note", "warning", "error") {
			t.Errorf("rules[%d].defaultConfiguration.level = %q", i, level)
		}
		if diff := cmp.Diff([]any{"concurrency", "correctness"}, dig(t, r, "properties", "tags")); diff != "" {
			t.Errorf("rules[%d] tags (-want +got):\n%s", i, diff)
		}
	}
	// Every registry rule, plus GQ009 which only a finding named.
	if len(rules) != len(sampleRules())+1 || !ids["GQ009"] {
		t.Errorf("got rules %v, want the registry plus GQ009", ids)
	}
	results := dig(t, doc, "runs", 0, "results").([]any)
	if len(results) != len(res.Findings) {
		t.Fatalf("got %d results for %d findings", len(results), len(res.Findings))
	}
	fingerprints := map[string]bool{}
	for i, r := range results {
		ruleID := dig(t, r, "ruleId").(string)
		idx := int(dig(t, r, "ruleIndex").(float64))
		if got := dig(t, rules[idx], "id"); got != ruleID {
			t.Errorf("results[%d]: ruleIndex %d names %v, ruleId is %q", i, idx, got, ruleID)
		}
		if level := dig(t, r, "level").(string); !oneOf(level, "none", "note", "warning", "error") {
			t.Errorf("results[%d].level = %q", i, level)
		}
		if dig(t, r, "message", "text").(string) == "" {
			t.Errorf("results[%d] has an empty message", i)
		}
		phys := dig(t, r, "locations", 0, "physicalLocation")
		uri := dig(t, phys, "artifactLocation", "uri").(string)
		if u, err := url.Parse(uri); err != nil || u.IsAbs() || strings.HasPrefix(uri, "/") || strings.Contains(uri, `\`) {
			t.Errorf("results[%d] uri %q is not a relative URI reference (%v)", i, uri, err)
		}
		region := dig(t, phys, "region").(map[string]any)
		start := dig(t, region, "startLine").(float64)
		if start < 1 {
			t.Errorf("results[%d] startLine = %v", i, start)
		}
		for _, k := range []string{"startColumn", "endLine"} {
			if v, ok := region[k]; ok && v.(float64) < 1 {
				t.Errorf("results[%d] %s = %v, want absent or ≥ 1", i, k, v)
			}
		}
		if end, ok := region["endLine"]; ok && end.(float64) < start {
			t.Errorf("results[%d] endLine %v < startLine %v", i, end, start)
		}
		fp := dig(t, r, "partialFingerprints", "guard/v1").(string)
		if fingerprints[fp] {
			t.Errorf("results[%d] repeats fingerprint %s", i, fp)
		}
		fingerprints[fp] = true
	}
}

func TestSARIFLevels(t *testing.T) {
	tests := []struct {
		sev  policy.Severity
		want string
	}{
		{policy.SevError, "error"},
		{policy.SevWarning, "warning"},
		{policy.SevInfo, "note"},
		{policy.SevOff, "none"},
		{"", "warning"},
	}
	for _, tt := range tests {
		if got := sarifLevel(tt.sev); got != tt.want {
			t.Errorf("sarifLevel(%q) = %q, want %q", tt.sev, got, tt.want)
		}
	}
}

func TestSARIFRuleDescriptor(t *testing.T) {
	doc := decodeSARIF(t, &lint.Result{}, sampleOptions())
	gq002 := dig(t, doc, "runs", 0, "tool", "driver", "rules", 4)
	want := map[string]any{
		"id":                   "GQ002",
		"name":                 "unguarded-decrement",
		"shortDescription":     map[string]any{"text": "c = c - x without c >= x in WHERE"},
		"fullDescription":      map[string]any{"text": "Two writers that both passed a lock can both decrement."},
		"help":                 map[string]any{"text": "Two writers that both passed a lock can both decrement.\n\nFix: Add AND c >= ? and check RowsAffected.", "markdown": "Two writers that both passed a lock can both decrement.\n\n**Fix:** Add AND c >= ? and check RowsAffected."},
		"defaultConfiguration": map[string]any{"level": "error"},
		"properties":           map[string]any{"tags": []any{"concurrency", "correctness"}},
	}
	if diff := cmp.Diff(want, gq002); diff != "" {
		t.Errorf("GQ002 descriptor (-want +got):\n%s", diff)
	}
	off := dig(t, doc, "runs", 0, "tool", "driver", "rules", 6, "defaultConfiguration")
	if diff := cmp.Diff(map[string]any{"level": "none", "enabled": false}, off); diff != "" {
		t.Errorf("off rule configuration (-want +got):\n%s", diff)
	}
	if got := dig(t, doc, "runs", 0, "results").([]any); len(got) != 0 {
		t.Errorf("results = %v, want []", got)
	}
}

func TestSARIFLocation(t *testing.T) {
	tests := []struct {
		name string
		f    lint.Finding
		want sarifLocation
	}{
		{
			name: "file",
			f:    lint.Finding{File: "dao/stock.go", Line: 12, Column: 9, EndLine: 14},
			want: sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: "dao/stock.go", URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: 12, StartColumn: 9, EndLine: 14},
			}},
		},
		{
			name: "file without position points at line 1",
			f:    lint.Finding{File: "dump.sql"},
			want: sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: "dump.sql", URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: 1},
			}},
		},
		{
			name: "live table",
			f:    lint.Finding{Target: "h:3306/db", Table: "t_inventory"},
			want: sarifLocation{
				PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: "guard-audit/h:3306/db"}, Region: sarifRegion{StartLine: 1}},
				LogicalLocations: []sarifLogicalLoc{{FullyQualifiedName: "h:3306/db/t_inventory", Kind: "table"}},
			},
		},
		{
			name: "live server",
			f:    lint.Finding{Target: "[::1]:3306/db"},
			want: sarifLocation{
				PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: "guard-audit/%5B::1%5D:3306/db"}, Region: sarifRegion{StartLine: 1}},
				LogicalLocations: []sarifLogicalLoc{{FullyQualifiedName: "[::1]:3306/db", Kind: "database"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, location(&tt.f)); diff != "" {
				t.Errorf("location (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFileURI(t *testing.T) {
	tests := []struct{ in, uri, base string }{
		{"internal/dao/stock.go", "internal/dao/stock.go", "%SRCROOT%"},
		{"./migrations//001_init.up.sql", "migrations/001_init.up.sql", "%SRCROOT%"},
		{"my dir/a%b#c?.sql", "my%20dir/a%25b%23c%3F.sql", "%SRCROOT%"},
		{"库存.sql", "%E5%BA%93%E5%AD%98.sql", "%SRCROOT%"},
		{"a:b/c:d.sql", "a%3Ab/c:d.sql", "%SRCROOT%"},
		{"../shared/x.sql", "../shared/x.sql", "%SRCROOT%"},
		{"/abs/x.sql", "file:///abs/x.sql", ""},
		{"C:/work/x.sql", "file:///C:/work/x.sql", ""},
	}
	for _, tt := range tests {
		uri, base := fileURI(tt.in)
		if uri != tt.uri || base != tt.base {
			t.Errorf("fileURI(%q) = %q, %q; want %q, %q", tt.in, uri, base, tt.uri, tt.base)
		}
		if _, err := url.Parse(uri); err != nil {
			t.Errorf("fileURI(%q) = %q does not parse: %v", tt.in, uri, err)
		}
	}
}

func TestFingerprint(t *testing.T) {
	base := lint.Finding{Code: "GQ002", File: "a.go", Line: 3, Table: "t", ColumnName: "c", SQL: "UPDATE t SET c = c - 1", Message: "m"}
	same := []func(*lint.Finding){
		func(f *lint.Finding) { f.Line, f.Column, f.EndLine = 90, 4, 91 },
		func(f *lint.Finding) { f.SQL = "UPDATE t\n\tSET c = c - 1 " },
		func(f *lint.Finding) { f.Message, f.Fix, f.Severity = "other wording", "fix", policy.SevInfo },
	}
	differ := []func(*lint.Finding){
		func(f *lint.Finding) { f.Code = "GQ003" },
		func(f *lint.Finding) { f.File = "b.go" },
		func(f *lint.Finding) { f.Table = "u" },
		func(f *lint.Finding) { f.ColumnName = "d" },
		func(f *lint.Finding) { f.SQL = "UPDATE t SET c = c - 2" },
		func(f *lint.Finding) { f.File, f.Target = "", "h:3306/db" },
		func(f *lint.Finding) { f.Table, f.ColumnName = "tc", "" }, // fields are separated
	}
	want := fingerprint(&base)
	for i, change := range same {
		f := base
		change(&f)
		if got := fingerprint(&f); got != want {
			t.Errorf("same[%d]: fingerprint changed to %s", i, got)
		}
	}
	for i, change := range differ {
		f := base
		change(&f)
		if got := fingerprint(&f); got == want {
			t.Errorf("differ[%d]: fingerprint unchanged", i)
		}
	}
}

// TestSARIFDuplicateFingerprints: two identical findings in one run (the same
// statement twice in a file) must stay two alerts.
func TestSARIFDuplicateFingerprints(t *testing.T) {
	f := lint.Finding{Code: "GQ001", Severity: policy.SevError, File: "a.sql", Line: 1, Message: "m"}
	g := f
	g.Line = 5
	doc := decodeSARIF(t, &lint.Result{Findings: []lint.Finding{f, g}}, Options{})
	first := dig(t, doc, "runs", 0, "results", 0, "partialFingerprints", "guard/v1").(string)
	second := dig(t, doc, "runs", 0, "results", 1, "partialFingerprints", "guard/v1").(string)
	h := fingerprint(&f)
	if first != h+":1" || second != h+":2" {
		t.Errorf("fingerprints = %q, %q; want %q, %q", first, second, h+":1", h+":2")
	}
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
