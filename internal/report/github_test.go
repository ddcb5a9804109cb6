package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

func TestGitHubCommand(t *testing.T) {
	tests := []struct {
		name string
		f    lint.Finding
		want string
	}{
		{
			name: "error with full position",
			f: lint.Finding{Code: "GQ002", Rule: "unguarded-decrement", Severity: policy.SevError,
				File: "dao/stock.go", Line: 12, Column: 9, EndLine: 14, Message: "m", Fix: "f"},
			want: "::error file=dao/stock.go,line=12,col=9,endLine=14,title=GQ002 unguarded-decrement::m%0AFix: f\n",
		},
		{
			name: "warning without column",
			f:    lint.Finding{Code: "GQ007", Rule: "select-for-update", Severity: policy.SevWarning, File: "a.sql", Line: 3, EndLine: 3, Message: "m"},
			want: "::warning file=a.sql,line=3,endLine=3,title=GQ007 select-for-update::m\n",
		},
		{
			name: "info becomes notice; no line drops the position",
			f:    lint.Finding{Code: "GS009", Rule: "no-primary-key", Severity: policy.SevInfo, File: "dump.sql", Message: "m"},
			want: "::notice file=dump.sql,title=GS009 no-primary-key::m\n",
		},
		{
			name: "end line before line is dropped",
			f:    lint.Finding{Code: "GQ001", Severity: policy.SevError, File: "a.sql", Line: 5, Column: 1, EndLine: 2, Message: "m"},
			want: "::error file=a.sql,line=5,col=1,title=GQ001::m\n",
		},
		{
			name: "live finding: no file, target prefix",
			f:    lint.Finding{Code: "GS001", Rule: "strict-sql-mode", Severity: policy.SevWarning, Target: "h:3306/db", Message: "m"},
			want: "::warning title=GS001 strict-sql-mode::h:3306/db: m\n",
		},
		{
			name: "escaping of data and properties",
			f: lint.Finding{Code: "GQ001", Rule: "r,x:y", Severity: policy.SevError, File: "d,1/a:b%.sql", Line: 1, Column: 1, EndLine: 1,
				Message: "100%: a, b\r\nc :: 库存"},
			want: "::error file=d%2C1/a%3Ab%25.sql,line=1,col=1,endLine=1,title=GQ001 r%2Cx%3Ay::100%25: a, b%0D%0Ac :: 库存\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			writeGitHub(&buf, &lint.Result{Findings: []lint.Finding{tt.f}}, Options{})
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("github (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGitHubEscapeFunctions(t *testing.T) {
	tests := []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"%0A", "%250A", "%250A"},
		{"a\nb\rc", "a%0Ab%0Dc", "a%0Ab%0Dc"},
		{"k:v,w", "k:v,w", "k%3Av%2Cw"},
	}
	for _, tt := range tests {
		if got := escapeData(tt.in); got != tt.data {
			t.Errorf("escapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := escapeProperty(tt.in); got != tt.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

// TestGitHubOneLinePerFinding: a raw newline would end the workflow command
// and print the rest of the message as plain log text.
func TestGitHubOneLinePerFinding(t *testing.T) {
	var buf bytes.Buffer
	res := sampleResult()
	if err := Write(&buf, FormatGitHub, res, Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(res.Findings) {
		t.Fatalf("got %d lines for %d findings:\n%s", len(lines), len(res.Findings), buf.String())
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "::") || strings.ContainsRune(l, '\r') {
			t.Errorf("line %d is not one workflow command: %q", i, l)
		}
	}
}
