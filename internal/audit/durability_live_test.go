package audit

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// unsafeServer are the options of a MariaDB that loses commits in a crash
// and replicates statements: the binary log on, flushed when the system
// likes, InnoDB's log flushed once a second.
var unsafeServer = []string{"--log-bin=mariadb-bin", "--sync-binlog=0", "--innodb-flush-log-at-trx-commit=2", "--binlog-format=STATEMENT"}

// serverFound is the part of a GS011/GS012 finding the live tests compare.
type serverFound struct {
	Code     string
	Severity policy.Severity
	Column   string
	Settings map[string]string
}

// durabilityFindings returns the GS011 and GS012 findings of fs.
func durabilityFindings(fs []lint.Finding) []serverFound {
	out := []serverFound{}
	for _, f := range fs {
		if f.Code == "GS011" || f.Code == "GS012" {
			out = append(out, serverFound{f.Code, f.Severity, f.ColumnName, f.Settings})
		}
	}
	return out
}

// TestAuditCommitDurability audits a MariaDB started with the unsafe
// settings, then the same server made durable: each unsafe setting is one
// finding naming it and its value, and the durable server has none.
func TestAuditCommitDurability(t *testing.T) {
	db := dbtest.PrivateMySQLWith(t, unsafeServer...)
	db.Exec(t, `CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0, CHECK (stock >= 0)) ENGINE=InnoDB`)
	res := auditDB(t, db, Options{})
	want := []serverFound{
		{"GS011", policy.SevError, "@@global.innodb_flush_log_at_trx_commit", map[string]string{"innodb_flush_log_at_trx_commit": "2"}},
		{"GS011", policy.SevError, "@@global.sync_binlog", map[string]string{"sync_binlog": "0", "log_bin": "ON"}},
		{"GS012", policy.SevWarning, "@@global.binlog_format", map[string]string{"binlog_format": "STATEMENT", "log_bin": "ON"}},
	}
	if d := cmp.Diff(want, durabilityFindings(res.Findings)); d != "" {
		t.Errorf("unsafe server (-want +got):\n%s\n%s", d, dump(res.Findings))
	}
	for _, f := range res.Findings {
		for name, value := range f.Settings {
			if name != "log_bin" && !strings.Contains(f.Message, name+" = "+value) {
				t.Errorf("%s does not name %s = %s: %s", f.Code, name, value, f.Message)
			}
		}
	}

	db.Server().Exec(t, "SET GLOBAL innodb_flush_log_at_trx_commit = 1", "SET GLOBAL sync_binlog = 1", "SET GLOBAL binlog_format = 'ROW'")
	res = auditDB(t, db, Options{})
	if got := durabilityFindings(res.Findings); len(got) != 0 {
		t.Errorf("durable server: %v\n%s", got, dump(res.Findings))
	}
}

// TestAuditDurabilityPrivileges audits the unsafe server with an account
// granted SELECT on the database only, which may not run SHOW ALL SLAVES
// STATUS nor SHOW SLAVE HOSTS: MariaDB's status counters still tell that
// no replication runs, so the findings are the same as root's, and no
// check is "cannot tell".
func TestAuditDurabilityPrivileges(t *testing.T) {
	db := dbtest.PrivateMySQLWith(t, unsafeServer...)
	acct := db.Account(t, "SELECT ON {db}.*")
	for _, stmt := range []string{"SHOW ALL SLAVES STATUS", "SHOW SLAVE HOSTS"} {
		if err := denied(acct.DSN, stmt); err != nil {
			t.Fatalf("%s: %v (the test needs an account the server refuses it to)", stmt, err)
		}
	}
	tg, err := target.Parse(acct.DSN)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	res := AuditTarget(context.Background(), tg, Options{Rules: rules.All()})
	if res.Err != nil {
		t.Fatal(dbtest.Redact(res.Err.Error()))
	}
	var codes []string
	for _, f := range durabilityFindings(res.Findings) {
		codes = append(codes, f.Code+" "+string(f.Severity)+" "+f.Column)
	}
	want := []string{"GS011 error @@global.innodb_flush_log_at_trx_commit", "GS011 error @@global.sync_binlog", "GS012 warning @@global.binlog_format"}
	if d := cmp.Diff(want, codes); d != "" {
		t.Errorf("(-want +got):\n%s\n%s", d, dump(res.Findings))
	}
}

// denied returns nil when the server refuses stmt to the account of dsn.
func denied(dsn, stmt string) error {
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(stmt)
	if err != nil {
		return nil
	}
	rows.Close()
	return errAllowed
}

var errAllowed = errors.New("the server allowed it")

// TestAuditReplicaPair audits a primary and its writable replica: the
// replica is GS012's error (read_only OFF) and GS011 notes it is a
// replica; the primary's replication is asynchronous, then semi-synchronous
// waiting AFTER_COMMIT, then enabled without a replica acknowledging, each
// a GS012 warning, and none once the replica acknowledges AFTER_SYNC.
func TestAuditReplicaPair(t *testing.T) {
	pair := dbtest.ReplicaPair(t, []string{"--sync-binlog=1"}, nil)
	pair.Primary.Exec(t, `CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0, CHECK (stock >= 0)) ENGINE=InnoDB`)
	pair.WaitReplica(t)

	replica := auditDB(t, pair.Replica, Options{})
	var readOnly, replicaNote bool
	for _, f := range replica.Findings {
		switch {
		case f.Code == "GS012" && f.ColumnName == "@@global.read_only":
			readOnly = f.Severity == policy.SevError && strings.Contains(f.Message, "a replica of "+pair.Primary.Addr+" and read_only is OFF") &&
				f.Settings["read_only"] == "OFF"
		case f.Code == "GS011" && f.ColumnName == "@@global.sync_binlog":
			replicaNote = strings.Contains(f.Message, "this server is a replica of "+pair.Primary.Addr)
		}
	}
	if !readOnly || !replicaNote {
		t.Errorf("writable replica: read_only error %v, GS011 replica note %v\n%s", readOnly, replicaNote, dump(replica.Findings))
	}
	pair.Replica.Server().Exec(t, "SET GLOBAL read_only = ON")
	for _, f := range auditDB(t, pair.Replica, Options{}).Findings {
		if f.Code == "GS012" {
			t.Errorf("read-only replica: %s", dump([]lint.Finding{f}))
		}
	}

	steps := []struct {
		name  string
		setup func()
		want  string // the GS012 finding's column, "" for none
	}{
		{"asynchronous", func() {}, "@@global.rpl_semi_sync_master_enabled"},
		{"AFTER_COMMIT", func() {
			pair.Primary.Server().Exec(t, "SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_COMMIT", "SET GLOBAL rpl_semi_sync_master_enabled = ON")
		}, "@@global.rpl_semi_sync_master_wait_point"},
		{"no replica acknowledges", func() {
			pair.Primary.Server().Exec(t, "SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_SYNC")
		}, "@@global.rpl_semi_sync_master_enabled"},
		{"semi-synchronous", func() {
			pair.Replica.Server().Exec(t, "SET GLOBAL rpl_semi_sync_slave_enabled = ON", "STOP SLAVE IO_THREAD", "START SLAVE IO_THREAD")
			waitSemiSyncClients(t, pair.Primary.Server().Root())
		}, ""},
	}
	for _, step := range steps {
		step.setup()
		var got []string
		for _, f := range auditDB(t, pair.Primary, Options{}).Findings {
			if f.Code == "GS012" {
				got = append(got, f.ColumnName)
				if !strings.Contains(f.Message, "1 replica") || f.Severity != policy.SevWarning {
					t.Errorf("%s: %s", step.name, dump([]lint.Finding{f}))
				}
			}
		}
		var want []string
		if step.want != "" {
			want = []string{step.want}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: GS012 (-want +got):\n%s", step.name, d)
		}
	}
}

// waitSemiSyncClients waits until the primary counts a semi-synchronous
// replica.
func waitSemiSyncClients(t *testing.T, root *sql.DB) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var name string
		var n int
		err := root.QueryRow("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_clients'").Scan(&name, &n)
		if err == nil && n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no semi-synchronous replica connected: %d, %v", n, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestFleetGroupsServerFindings audits two databases of one unsafe server
// as a fleet: each GS011/GS012 finding is reported once, named by the
// server, with the number of databases that share it, while the findings
// of each database stay per database.
func TestFleetGroupsServerFindings(t *testing.T) {
	a := dbtest.PrivateMySQLWith(t, unsafeServer...)
	b := a.AnotherDB(t)
	for _, db := range []*dbtest.DB{a, b} {
		db.Exec(t, `CREATE TABLE t_nopk (name VARCHAR(16)) ENGINE=InnoDB`)
	}
	rep := Run(context.Background(), []*target.Target{parseTarget(t, a), parseTarget(t, b)}, Options{Rules: rules.All()})
	if len(rep.Failures) > 0 {
		t.Fatalf("failures: %v", rep.Failures)
	}
	type row struct {
		Code, Target, Column string
		Databases            int
	}
	var got []row
	for _, f := range rep.Result.Findings {
		if f.Code == "GS011" || f.Code == "GS012" || f.Code == "GS009" {
			got = append(got, row{f.Code, f.Target, f.ColumnName, f.Databases})
		}
	}
	want := []row{
		{"GS009", a.Addr + "/" + a.Name, "", 0},
		{"GS009", b.Addr + "/" + b.Name, "", 0},
		{"GS011", a.Addr, "@@global.innodb_flush_log_at_trx_commit", 2},
		{"GS011", a.Addr, "@@global.sync_binlog", 2},
		{"GS012", a.Addr, "@@global.binlog_format", 2},
	}
	lessRow := func(x, y row) bool { return x.Code+x.Target+x.Column < y.Code+y.Target+y.Column }
	if d := cmp.Diff(want, got, cmpopts.SortSlices(lessRow)); d != "" {
		t.Errorf("fleet (-want +got):\n%s\n%s", d, dump(rep.Result.Findings))
	}
}
