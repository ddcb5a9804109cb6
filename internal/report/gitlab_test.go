package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

func gitlabIssues(t *testing.T, fs ...lint.Finding) []gitlabIssue {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, FormatGitLab, &lint.Result{Findings: fs}, Options{}); err != nil {
		t.Fatal(err)
	}
	var out []gitlabIssue
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("%v:\n%s", err, buf.String())
	}
	return out
}

func TestGitLabReport(t *testing.T) {
	stmt := lint.Finding{Code: "GQ001", Rule: "write-without-where", Severity: policy.SevError, File: "q.sql", Line: 4,
		SQL: "DELETE FROM t", Message: "no WHERE"}
	again := stmt
	again.Line = 9
	warn := lint.Finding{Code: "GQ007", Severity: policy.SevWarning, File: "q.sql", Line: 12, SQL: "SELECT 1 FOR UPDATE", Message: "m"}
	live := lint.Finding{Code: "GS001", Severity: policy.SevInfo, Target: "db1:3306/shop", Message: "sql_mode"}
	got := gitlabIssues(t, stmt, again, warn, live)

	fps := map[string]bool{}
	for _, is := range got {
		fps[is.Fingerprint] = true
	}
	if len(fps) != 4 {
		t.Errorf("fingerprints %v: want one per finding, even for the same statement twice", got)
	}
	want := []gitlabIssue{
		{Description: "GQ001 write-without-where: no WHERE", CheckName: "GQ001", Severity: "critical", Location: gitlabLocation{Path: "q.sql", Lines: gitlabLines{Begin: 4}}},
		{Description: "GQ001 write-without-where: no WHERE", CheckName: "GQ001", Severity: "critical", Location: gitlabLocation{Path: "q.sql", Lines: gitlabLines{Begin: 9}}},
		{Description: "GQ007: m", CheckName: "GQ007", Severity: "major", Location: gitlabLocation{Path: "q.sql", Lines: gitlabLines{Begin: 12}}},
		{Description: "GS001: sql_mode", CheckName: "GS001", Severity: "info", Location: gitlabLocation{Path: "db1:3306/shop", Lines: gitlabLines{Begin: 1}}},
	}
	for i := range got {
		got[i].Fingerprint = ""
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("issues (-want +got):\n%s", d)
	}

	// Lines inserted above move the findings, not their fingerprints.
	moved := []lint.Finding{stmt, again, warn}
	for i := range moved {
		moved[i].Line += 20
	}
	before, after := gitlabIssues(t, stmt, again, warn), gitlabIssues(t, moved...)
	for i := range before {
		if before[i].Fingerprint != after[i].Fingerprint {
			t.Errorf("issue %d: fingerprint %s became %s when its lines moved", i, before[i].Fingerprint, after[i].Fingerprint)
		}
	}
}
