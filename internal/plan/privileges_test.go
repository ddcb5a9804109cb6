package plan

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
)

// TestLiveTableGrants plans as an account granted single tables. The CHECK of
// t_stock, which MariaDB's CHECK_CONSTRAINTS hides from it, is not added again
// (a blocking table copy); t_ledger, of which it sees some columns and no
// check at all, gets no CHECK and no NOT NULL step, and the notes say why; t_orders, whose
// definition it sees, gets its missing CHECK.
func TestLiveTableGrants(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		`CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
			CONSTRAINT chk_stock CHECK (stock >= 0)) ENGINE=InnoDB`,
		`CREATE TABLE t_ledger (id BIGINT PRIMARY KEY, balance INT NULL CHECK (balance >= 0), version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		`CREATE TABLE t_orders (id BIGINT PRIMARY KEY, quantity INT NOT NULL, version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
	)
	acct := db.Account(t,
		"SELECT ON {db}.t_stock",
		"SELECT (id, balance, version) ON {db}.t_ledger",
		"SELECT ON {db}.t_orders")
	pool, err := sql.Open("mysql", acct.DSN)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	defer pool.Close()
	l, err := ReadLive(context.Background(), pool, db.Name)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	var planned []string
	for _, st := range Plan(l.Schema, policy.Default(), l.Server, Options{Triggers: l.Triggers, Rows: l.Rows}) {
		planned = append(planned, st.Table+" "+st.Guard)
	}
	if got, want := strings.Join(planned, "; "), "t_orders check"; got != want {
		t.Errorf("planned %q, want %q", got, want)
	}
	notes := strings.Join(l.Notes, "\n")
	for _, want := range []string{
		"no guard planned for t_ledger: the account holds privileges on some of its columns only",
		"privileges on single tables only",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if strings.Contains(notes, "t_stock") || strings.Contains(notes, "t_orders") {
		t.Errorf("notes %q name a table whose checks the account read", notes)
	}
}
