package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestLimitedAccount runs audit and plan as an account granted single tables:
// the CHECK of t_stock that MariaDB's CHECK_CONSTRAINTS hides from it is
// neither reported missing nor planned again, the GS010 scan of t_orders (no
// SELECT) is a warning while the real GS003 of t_orders stands, and both
// commands warn on stderr that other tables are not seen.
func TestLimitedAccount(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		`CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
			CONSTRAINT chk_stock CHECK (stock >= 0)) ENGINE=InnoDB`,
		`CREATE TABLE t_orders (id BIGINT PRIMARY KEY, quantity INT NOT NULL, version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		`CREATE TABLE t_secret (id BIGINT PRIMARY KEY, points INT NOT NULL) ENGINE=InnoDB`,
	)
	acct := db.Account(t, "SELECT ON {db}.t_stock", "INSERT ON {db}.t_orders")
	const limited = "the account holds privileges on single tables only"

	run := guardAudit(t, acct.Password, "--dsn", acct.DSN, "--no-color")
	if run.code != exitFindings {
		t.Errorf("audit: exit %d, want %d (the GS003 of t_orders)\n%s\n%s", run.code, exitFindings, run.out, dbtest.Redact(run.errOut))
	}
	for _, want := range []string{"GS003 error: counter t_orders.quantity has no CHECK", "GS010 warning: the scan of t_orders was refused (error 1142)"} {
		if !strings.Contains(run.out, want) {
			t.Errorf("audit output lacks %q:\n%s", want, run.out)
		}
	}
	if strings.Contains(run.out, "t_stock.stock has no CHECK") || strings.Contains(run.out, "t_secret") {
		t.Errorf("audit reports t_stock's CHECK missing, or t_secret:\n%s", run.out)
	}
	if !strings.Contains(run.errOut, "guard: warning: "+db.Addr+"/"+db.Name+": "+limited) {
		t.Errorf("audit stderr lacks %q:\n%s", limited, dbtest.Redact(run.errOut))
	}

	stdout, stderr, code := guard(t, "plan", "--dsn", acct.DSN, "--out", filepath.Join(t.TempDir(), "guards"), "--dry-run", "--no-color")
	for _, s := range []string{stdout, stderr} {
		if strings.Contains(s, acct.Password) {
			t.Fatalf("the password shows:\n%s", dbtest.Redact(s))
		}
	}
	if code != exitClean {
		t.Fatalf("plan: exit %d\n%s\n%s", code, stdout, dbtest.Redact(stderr))
	}
	if !strings.Contains(stdout, "t_orders  check") || strings.Contains(stdout, "t_stock") {
		t.Errorf("plan: want the CHECK of t_orders and nothing for t_stock:\n%s", stdout)
	}
	if !strings.Contains(stderr, "guard: warning: "+limited) {
		t.Errorf("plan stderr lacks %q:\n%s", limited, dbtest.Redact(stderr))
	}
}
