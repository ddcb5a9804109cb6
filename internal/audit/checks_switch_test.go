package audit

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
)

// TestAuditCheckConstraintChecks: MariaDB's check_constraint_checks=OFF,
// globally or in the session the DSN sets, is GS002: every CHECK is off. It
// runs on a server of its own, since it changes a global variable.
func TestAuditCheckConstraintChecks(t *testing.T) {
	db := dbtest.PrivateMySQL(t)
	db.Exec(t, `CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0,
		CONSTRAINT chk_stock CHECK (stock >= 0)) ENGINE=InnoDB`)
	if got := summarize(auditDB(t, db, Options{NoData: true}).Findings); len(got) != 0 {
		t.Fatalf("checks on: findings %v", got)
	}

	db.Server().Exec(t, "SET GLOBAL check_constraint_checks = OFF")
	// New connections inherit the global value: both scopes are off.
	res := auditDB(t, db, Options{NoData: true})
	want := []found{
		{"GS002", policy.SevError, "", "@@global.check_constraint_checks"},
		{"GS002", policy.SevError, "", "@@session.check_constraint_checks"},
	}
	if d := cmp.Diff(want, summarize(res.Findings)); d != "" {
		t.Fatalf("global off (-want +got):\n%s", d)
	}
	if msg := res.Findings[0].Message; msg != "global check_constraint_checks is OFF: none of the 1 CHECK constraint on 1 table is evaluated, "+
		"and a write that breaks one succeeds" {
		t.Errorf("message: %s", msg)
	}

	on := *db
	on.DSN += "&check_constraint_checks=1"
	if d := cmp.Diff(want[:1], summarize(auditDB(t, &on, Options{NoData: true}).Findings)); d != "" {
		t.Errorf("session on again (-want +got):\n%s", d)
	}

	db.Server().Exec(t, "SET GLOBAL check_constraint_checks = ON")
	off := *db
	off.DSN += "&check_constraint_checks=0"
	if d := cmp.Diff(want[1:], summarize(auditDB(t, &off, Options{NoData: true}).Findings)); d != "" {
		t.Errorf("session off (-want +got):\n%s", d)
	}
}
