package report

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/lint"
)

// TestJSONContractKeys pins the key sets of DESIGN §5: a renamed struct tag
// or a forgotten omitempty breaks every script that reads guard's output.
func TestJSONContractKeys(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, FormatJSON, sampleResult(), sampleOptions()); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	keys := func(v any) []string {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%T is not an object", v)
		}
		return slices.Sorted(maps.Keys(m))
	}
	if diff := cmp.Diff([]string{"findings", "summary", "tool", "version"}, keys(doc)); diff != "" {
		t.Errorf("top-level keys (-want +got):\n%s", diff)
	}
	wantFinding := []string{"code", "column", "column_name", "end_line", "file", "fix", "line", "message", "rule", "severity", "sql", "table", "target"}
	findings, ok := doc["findings"].([]any)
	if !ok || len(findings) != len(sampleResult().Findings) {
		t.Fatalf("findings = %v, want %d findings", doc["findings"], len(sampleResult().Findings))
	}
	for i, f := range findings {
		if diff := cmp.Diff(wantFinding, keys(f)); diff != "" {
			t.Errorf("finding %d keys (-want +got):\n%s", i, diff)
		}
	}
	if diff := cmp.Diff([]string{"error", "files", "info", "statements", "tables", "warning"}, keys(doc["summary"])); diff != "" {
		t.Errorf("summary keys (-want +got):\n%s", diff)
	}
	if doc["tool"] != "guard" || doc["version"] != "1.2.3" {
		t.Errorf("tool, version = %v, %v; want guard, 1.2.3", doc["tool"], doc["version"])
	}
}

func TestJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		res  *lint.Result
	}{
		{"sample", sampleResult()},
		{"nil findings", &lint.Result{Summary: lint.Summary{Files: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, FormatJSON, tt.res, Options{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if !strings.HasSuffix(out, "}\n") || !strings.HasPrefix(out, "{\n  \"tool\": \"guard\",\n") {
				t.Errorf("output is not indented by two spaces with a trailing newline:\n%s", out)
			}
			var got struct {
				Findings []lint.Finding
				Summary  lint.Summary
			}
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Findings == nil {
				t.Errorf("findings decoded as null, want an array")
			}
			want := tt.res.Findings
			if want == nil {
				want = []lint.Finding{}
			}
			if diff := cmp.Diff(want, got.Findings); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.res.Summary, got.Summary); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONKeepsSQLReadable(t *testing.T) {
	res := &lint.Result{Findings: []lint.Finding{{SQL: "WHERE a <> b && c"}}}
	var buf bytes.Buffer
	if err := Write(&buf, FormatJSON, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"sql": "WHERE a <> b && c"`) {
		t.Errorf("sql was HTML-escaped:\n%s", buf.String())
	}
}
