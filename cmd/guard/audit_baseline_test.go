package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestAuditBaselineServesEveryShard records the baseline on one shard and
// reads it on two: what the shards share is hidden on both, and a table
// only the second has is what is reported. The file names no target.
func TestAuditBaselineServesEveryShard(t *testing.T) {
	a, b := dbtest.MySQL(t), dbtest.MySQL(t)
	table := `CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL) ENGINE=InnoDB`
	a.Exec(t, table)
	b.Exec(t, table, `CREATE TABLE t_wallet (id BIGINT PRIMARY KEY, balance INT NOT NULL) ENGINE=InnoDB`)
	path := filepath.Join(t.TempDir(), "audit-baseline.json")

	r := guardAudit(t, a.Password, "--no-data", "--write-baseline", path, "--dsn", a.DSN)
	if r.code != exitClean || r.out != "" || !strings.Contains(r.errOut, "records") {
		t.Fatalf("--write-baseline: exit %d, stdout %q, stderr %q", r.code, r.out, dbtest.Redact(r.errOut))
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{a.Addr, a.Name, b.Name} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("the baseline names the target (%q):\n%s", leak, raw)
		}
	}

	r = guardAudit(t, a.Password, "--no-data", "--no-color", "--baseline", path, "--dsn", a.DSN, "--dsn", b.DSN)
	if r.code != exitFindings {
		t.Errorf("--baseline: exit %d, want %d; stderr %s", r.code, exitFindings, dbtest.Redact(r.errOut))
	}
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n") {
		if strings.Contains(line, ": G") && (!strings.Contains(line, b.Name) || !strings.Contains(line, "t_wallet")) {
			t.Errorf("reported %q: want only t_wallet of %s", line, b.Name)
		}
	}
	if !strings.Contains(r.out, "t_wallet") || !strings.Contains(r.errOut, "hid ") || strings.Contains(r.errOut, "no longer occur") {
		t.Errorf("--baseline: stdout %q, stderr %q; want t_wallet reported and the rest hidden", r.out, dbtest.Redact(r.errOut))
	}
}
