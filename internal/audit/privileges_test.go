package audit

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint/rules"
)

// grantTables creates tables an auditor is given partial privileges on:
// t_stock has its CHECK, t_ledger too (but the auditor holds column
// privileges only), t_orders has none, and t_secret is not granted at all.
func grantTables(t *testing.T, db *dbtest.DB) {
	t.Helper()
	db.Exec(t,
		`CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
			CONSTRAINT chk_stock CHECK (stock >= 0)) ENGINE=InnoDB`,
		`CREATE TABLE t_ledger (id BIGINT PRIMARY KEY, balance INT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
			CONSTRAINT chk_balance CHECK (balance >= 0)) ENGINE=InnoDB`,
		`CREATE TABLE t_orders (id BIGINT PRIMARY KEY, quantity INT NOT NULL, version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		`INSERT INTO t_orders VALUES (1, -2, 0)`,
		`CREATE TABLE t_secret (id BIGINT PRIMARY KEY, points INT NOT NULL) ENGINE=InnoDB`,
	)
}

// auditAs audits db's database as the account of dsn.
func auditAs(t *testing.T, dsn string) *TargetResult {
	t.Helper()
	tg, err := target.Parse(dsn)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	return AuditTarget(context.Background(), tg, Options{Rules: rules.All()})
}

// TestAuditTableGrants audits as an account granted single tables: the CHECK
// it can read through SHOW CREATE TABLE is no GS003, the one it cannot see at
// all is "cannot tell" at info (and, its key and version column unseen, no
// GS006 or GS009), the refused scan of GS010 is a warning that
// keeps every schema finding, and the result says tables may be missing.
func TestAuditTableGrants(t *testing.T) {
	db := dbtest.MySQL(t)
	grantTables(t, db)
	acct := db.Account(t,
		"SELECT ON {db}.t_stock",
		"SELECT (balance) ON {db}.t_ledger",
		"INSERT ON {db}.t_orders")
	res := auditAs(t, acct.DSN)
	if res.Err != nil {
		t.Fatalf("audit failed: %v", dbtest.Redact(res.Err.Error()))
	}
	want := []found{
		{"GS003", policy.SevInfo, "t_ledger", "balance"},
		{"GS003", policy.SevError, "t_orders", "quantity"},
		{"GS010", policy.SevWarning, "t_orders", ""},
	}
	if d := cmp.Diff(want, summarize(res.Findings)); d != "" {
		t.Errorf("findings (-want +got):\n%s\n%s", d, dump(res.Findings))
	}
	for _, f := range res.Findings {
		switch f.Table {
		case "t_ledger":
			if !strings.Contains(f.Message, "cannot tell") || !strings.Contains(f.Message, "cannot see t_ledger's CHECK constraints") {
				t.Errorf("t_ledger: %q", f.Message)
			}
		case "t_orders":
			if f.Code == "GS010" && !strings.Contains(f.Message, "the scan of t_orders was refused (error 1142)") {
				t.Errorf("t_orders GS010: %q", f.Message)
			}
		}
	}
	if res.Tables != 3 {
		t.Errorf("tables = %d, want the 3 granted", res.Tables)
	}
	if len(res.Notes) != 2 || !strings.Contains(res.Notes[0], "privileges on single tables only: it sees 3 tables") ||
		!strings.HasPrefix(res.Notes[1], "t_ledger: the account holds privileges on some of its columns only") {
		t.Errorf("notes = %q, want the limited view and t_ledger's partial columns said", res.Notes)
	}
	noPassword(t, acct.Password, res)
}

// TestAuditDatabaseGrant is the twin with SELECT on the whole database: every
// CHECK is seen, the negative row is found, nothing is noted.
func TestAuditDatabaseGrant(t *testing.T) {
	db := dbtest.MySQL(t)
	grantTables(t, db)
	acct := db.Account(t, "SELECT ON {db}.*")
	res := auditAs(t, acct.DSN)
	if res.Err != nil {
		t.Fatalf("audit failed: %v", dbtest.Redact(res.Err.Error()))
	}
	want := []found{
		{"GS003", policy.SevError, "t_orders", "quantity"},
		{"GS010", policy.SevError, "t_orders", "quantity"},
		{"GS003", policy.SevError, "t_secret", "points"},
		{"GS006", policy.SevError, "t_secret", ""},
	}
	if d := cmp.Diff(want, summarize(res.Findings)); d != "" {
		t.Errorf("findings (-want +got):\n%s\n%s", d, dump(res.Findings))
	}
	if len(res.Notes) != 0 {
		t.Errorf("notes = %q, want none", res.Notes)
	}
}
