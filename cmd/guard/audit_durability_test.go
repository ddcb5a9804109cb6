package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestAuditDurabilityReports audits two databases of a MariaDB that flushes
// InnoDB's log once a second, as a fleet: JSON and SARIF carry the setting
// of the one GS011 finding of the server, named host:port, with the two
// databases that share it, and the text says so.
func TestAuditDurabilityReports(t *testing.T) {
	a := dbtest.PrivateMySQLWith(t, "--innodb-flush-log-at-trx-commit=2")
	b := a.AnotherDB(t)
	targets := filepath.Join(t.TempDir(), "shards.txt")
	if err := os.WriteFile(targets, []byte(a.DSN+"\n"+b.DSN+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	run := guardAudit(t, a.Password, "--format", "json", "--no-data", "--targets", targets)
	var doc struct {
		Findings []struct {
			Code      string            `json:"code"`
			Target    string            `json:"target"`
			Message   string            `json:"message"`
			Settings  map[string]string `json:"settings"`
			Databases int               `json:"databases"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(run.out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, dbtest.Redact(run.errOut))
	}
	n := 0
	for _, f := range doc.Findings {
		if f.Code != "GS011" {
			continue
		}
		n++
		if f.Target != a.Addr || f.Settings["innodb_flush_log_at_trx_commit"] != "2" || f.Databases != 2 ||
			!strings.Contains(f.Message, "innodb_flush_log_at_trx_commit = 2") {
			t.Errorf("GS011 = %+v, want target %s, settings innodb_flush_log_at_trx_commit 2, databases 2", f, a.Addr)
		}
	}
	if n != 1 || run.code != exitFindings {
		t.Errorf("exit %d, %d GS011 findings, want 1 for the server:\n%s", run.code, n, dbtest.Redact(run.out))
	}

	run = guardAudit(t, a.Password, "--format", "sarif", "--no-data", "--targets", targets)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string `json:"ruleId"`
				Properties struct {
					Settings  map[string]string `json:"settings"`
					Databases int               `json:"databases"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(run.out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("sarif: %v\n%s", err, dbtest.Redact(run.out))
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "GS011" {
			found = r.Properties.Settings["innodb_flush_log_at_trx_commit"] == "2" && r.Properties.Databases == 2
		}
	}
	if !found {
		t.Errorf("sarif: no GS011 result carrying the setting and the databases:\n%s", dbtest.Redact(run.out))
	}

	run = guardAudit(t, a.Password, "--no-data", "--no-color", "--targets", targets)
	if !strings.Contains(run.out, a.Addr+": GS011 error: innodb_flush_log_at_trx_commit = 2: ") ||
		!strings.Contains(run.out, "(2 audited databases share this server)") {
		t.Errorf("text:\n%s", dbtest.Redact(run.out))
	}
}

// TestRulesExplainsDurability: guard rules GS011 and GS012 print the rationale.
func TestRulesExplainsDurability(t *testing.T) {
	for code, want := range map[string]string{
		"GS011": "innodb_flush_log_at_trx_commit = 2",
		"GS012": "super_read_only",
	} {
		out, errOut, code2 := guard(t, "rules", code)
		if code2 != exitClean || !strings.Contains(out, want) || !strings.Contains(out, code) {
			t.Errorf("guard rules %s: exit %d, want %q in:\n%s%s", code, code2, want, out, errOut)
		}
	}
}
