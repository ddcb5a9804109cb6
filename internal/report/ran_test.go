package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/guard-sql/guard/lint"
)

// TestRanStatement: a finding on a statement a live server ran says how
// often it ran in every format, and json and sarif carry its digest; a
// finding on code carries none of it.
func TestRanStatement(t *testing.T) {
	ran := lint.Finding{Code: "GQ002", Rule: "unguarded-decrement", Severity: "error", Target: "db1:3306/shop",
		Table: "t_inventory", ColumnName: "inventory", Message: "decrement of counter t_inventory.inventory", Fix: "add a guard",
		SQL: "UPDATE `t_inventory` SET `inventory` = `inventory` - ? WHERE `id` = ?", Digest: "945b42ee1a0a4ee0",
		Executions: 7, FirstSeen: "2026-12-01T09:00:00Z", LastSeen: "2026-12-01T11:00:00Z"}
	code := lint.Finding{Code: "GQ002", Rule: "unguarded-decrement", Severity: "error", File: "dao.go", Line: 3, Column: 1,
		Table: "t_inventory", ColumnName: "inventory", Message: "decrement", SQL: "UPDATE t_inventory SET inventory = inventory - 1"}
	for _, c := range []struct {
		format string
		want   []string
	}{
		{FormatText, []string{"db1:3306/shop: GQ002 error: decrement of counter t_inventory.inventory (ran 7 times)"}},
		{FormatJSON, []string{`"digest": "945b42ee1a0a4ee0"`, `"executions": 7`, `"first_seen": "2026-12-01T09:00:00Z"`, `"last_seen": "2026-12-01T11:00:00Z"`}},
		{FormatSARIF, []string{"(ran 7 times) Fix: add a guard", `"digest": "945b42ee1a0a4ee0"`, `"executions": 7`}},
		{FormatGitHub, []string{"decrement of counter t_inventory.inventory (ran 7 times)"}},
		{FormatGitLab, []string{"(ran 7 times)"}},
	} {
		var ranOut, codeOut bytes.Buffer
		if err := Write(&ranOut, c.format, &lint.Result{Findings: []lint.Finding{ran}}, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(ranOut.String(), w) {
				t.Errorf("%s: want %q in:\n%s", c.format, w, ranOut.String())
			}
		}
		if err := Write(&codeOut, c.format, &lint.Result{Findings: []lint.Finding{code}}, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, not := range []string{"ran ", "digest", "executions", "first_seen", "firstSeen"} {
			if strings.Contains(codeOut.String(), not) {
				t.Errorf("%s: a finding on code shows %q:\n%s", c.format, not, codeOut.String())
			}
		}
	}
}
