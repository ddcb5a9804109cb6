package audit

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// found is the part of a live finding the tests compare.
type found struct {
	Code     string
	Severity policy.Severity
	Table    string
	Column   string
}

func summarize(fs []lint.Finding) []found {
	out := []found{}
	for _, f := range fs {
		out = append(out, found{f.Code, f.Severity, f.Table, f.ColumnName})
	}
	return out
}

// parseTarget parses the DSN of a test database.
func parseTarget(t *testing.T, db *dbtest.DB) *target.Target {
	t.Helper()
	tg, err := target.Parse(db.DSN)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	return tg
}

// auditDB audits db with the whole registry and checks that the result
// names its target and hides the password.
func auditDB(t *testing.T, db *dbtest.DB, opts Options) *TargetResult {
	t.Helper()
	opts.Rules = rules.All()
	res := AuditTarget(context.Background(), parseTarget(t, db), opts)
	if res.Err != nil {
		t.Fatalf("audit: %v", dbtest.Redact(res.Err.Error()))
	}
	want := db.Addr + "/" + db.Name
	if res.Target != want {
		t.Errorf("target = %q, want %q", res.Target, want)
	}
	for _, f := range res.Findings {
		wantTarget := want
		if r := rules.ByCode(f.Code); r != nil && r.PerServer {
			// The server's findings name the server.
			wantTarget = db.Addr
		}
		if f.Target != wantTarget || f.File != "" {
			t.Errorf("%s: target %q file %q, want target %q and no file", f.Code, f.Target, f.File, wantTarget)
		}
	}
	noPassword(t, db.Password, res)
	return res
}

// noPassword fails t when the password shows anywhere in v's JSON form.
func noPassword(t *testing.T, password string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if password == "" {
		t.Fatal("test database has no password: the check would prove nothing")
	}
	if strings.Contains(string(b), password) {
		t.Errorf("the password appears in %s", dbtest.Redact(string(b)))
	}
}

// TestAuditSchemaRules creates one table with each problem and one with each
// fix, and checks the live findings of GS002-GS009.
func TestAuditSchemaRules(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		// GS003 and GS006: a counter without CHECK on an unversioned table.
		`CREATE TABLE t_stock_bad (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		// The fix of GS003/GS006/GS007: CHECK, version with a default.
		`CREATE TABLE t_stock_good (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0,
			version BIGINT NOT NULL DEFAULT 0, CONSTRAINT chk_stock CHECK (stock >= 0)) ENGINE=InnoDB`,
		// GS003 warning: UNSIGNED without CHECK.
		`CREATE TABLE t_unsigned (id BIGINT PRIMARY KEY, quantity INT UNSIGNED NOT NULL DEFAULT 0,
			version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		// GS004: a NULLable counter (guarded by a CHECK otherwise).
		`CREATE TABLE t_nullable (id BIGINT PRIMARY KEY, balance DECIMAL(12,2) NULL,
			version BIGINT NOT NULL DEFAULT 0, CHECK (balance >= 0)) ENGINE=InnoDB`,
		// GS005 and its fix.
		`CREATE TABLE t_order_bad (id BIGINT PRIMARY KEY, order_no VARCHAR(32) NOT NULL, KEY ix_order_no (order_no)) ENGINE=InnoDB`,
		`CREATE TABLE t_order_good (id BIGINT PRIMARY KEY, order_no VARCHAR(32) NOT NULL, UNIQUE KEY uk_order_no (order_no)) ENGINE=InnoDB`,
		// GS007: the version column is nullable text.
		`CREATE TABLE t_state_bad (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL, version VARCHAR(8) NULL) ENGINE=InnoDB`,
		`CREATE TABLE t_state_good (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL, version INT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		// GS008 and GS009.
		`CREATE TABLE t_myisam (id BIGINT PRIMARY KEY, name VARCHAR(16)) ENGINE=MyISAM`,
		`CREATE TABLE t_nopk (name VARCHAR(16)) ENGINE=InnoDB`,
		`CREATE TABLE t_pk (id BIGINT PRIMARY KEY, name VARCHAR(16)) ENGINE=InnoDB`,
		// Views are no tables.
		`CREATE VIEW v_stock AS SELECT id, stock FROM t_stock_bad`,
	)
	res := auditDB(t, db, Options{})
	want := []found{
		{"GS008", policy.SevError, "t_myisam", ""},
		{"GS009", policy.SevError, "t_nopk", ""},
		{"GS004", policy.SevError, "t_nullable", "balance"},
		{"GS005", policy.SevError, "t_order_bad", "order_no"},
		{"GS007", policy.SevError, "t_state_bad", "version"},
		{"GS003", policy.SevError, "t_stock_bad", "stock"},
		{"GS006", policy.SevError, "t_stock_bad", ""},
		{"GS003", policy.SevWarning, "t_unsigned", "quantity"},
	}
	if d := cmp.Diff(want, summarize(res.Findings)); d != "" {
		t.Errorf("findings (-want +got):\n%s\n%s", d, dump(res.Findings))
	}
	if res.Tables != 11 {
		t.Errorf("tables = %d, want 11", res.Tables)
	}
	if !res.Server.EnforcesCheck() {
		t.Errorf("server %s: EnforcesCheck false, GS002 would fire on every CHECK", res.Server)
	}
	// Introspection, sql_mode, the durability variables and replica status
	// (GS011, GS012), and GS010's count per counter column; no data rows
	// are negative, so no sample query.
	if res.Queries < 5 || res.Queries > 14 {
		t.Errorf("queries = %d, want a handful", res.Queries)
	}
}

// TestAuditStrictMode runs GS001 against an empty global sql_mode and a DSN
// whose session mode is strict again.
func TestAuditStrictMode(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, `CREATE TABLE t_pk (id BIGINT PRIMARY KEY) ENGINE=InnoDB`)
	srv := db.Server()
	var saved string
	if err := srv.Root().QueryRow("SELECT @@GLOBAL.sql_mode").Scan(&saved); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Exec(t, "SET GLOBAL sql_mode = '"+saved+"'") })

	if got := summarize(auditDB(t, db, Options{}).Findings); len(got) != 0 {
		t.Fatalf("strict server (%q): findings %v", saved, got)
	}
	srv.Exec(t, "SET GLOBAL sql_mode = ''")
	res := auditDB(t, db, Options{})
	want := []found{
		{"GS001", policy.SevError, "", "@@global.sql_mode"},
		{"GS001", policy.SevError, "", "@@session.sql_mode"},
	}
	if d := cmp.Diff(want, summarize(res.Findings)); d != "" {
		t.Errorf("sql_mode '' (-want +got):\n%s", d)
	}
	// A DSN that sets the session mode: only the global one is lax.
	strict := *db
	strict.DSN += "&sql_mode=%27STRICT_TRANS_TABLES%27"
	res = auditDB(t, &strict, Options{})
	if d := cmp.Diff(want[:1], summarize(res.Findings)); d != "" {
		t.Errorf("strict session (-want +got):\n%s", d)
	}
}

// TestAuditExistingViolations checks GS010's counts and samples.
func TestAuditExistingViolations(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		`CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
			CHECK (stock >= -100)) ENGINE=InnoDB`,
		`INSERT INTO t_stock (id, stock) VALUES (1, 5), (2, -1), (3, 0), (4, -3), (5, -2), (6, -7), (7, -1), (8, -4), (9, 2)`,
		`CREATE TABLE t_payment (id BIGINT PRIMARY KEY, pay_no VARCHAR(32) NULL, KEY ix_pay_no (pay_no)) ENGINE=InnoDB`,
		`INSERT INTO t_payment VALUES (1, 'P1'), (2, 'P2'), (3, 'P1'), (4, 'P3'), (5, 'P1'), (6, 'P2'), (7, NULL), (8, NULL), (9, 'it''s')`,
		`CREATE TABLE t_clean (id BIGINT PRIMARY KEY, points INT NOT NULL, request_id VARCHAR(32), version INT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		`INSERT INTO t_clean VALUES (1, 0, 'a', 0), (2, 10, 'b', 0)`,
		`CREATE TABLE t_trade (id BIGINT PRIMARY KEY, channel VARCHAR(8) NOT NULL, trade_no VARCHAR(16) NOT NULL, UNIQUE KEY uk_id_channel (id, channel)) ENGINE=InnoDB`,
		`INSERT INTO t_trade VALUES (1, 'ali', 'T1'), (2, 'wx', 'T1'), (3, 'ali', 'T1'), (4, 'wx', 'T2')`,
	)
	pol, err := policy.Parse("policies.toml", []byte("version = 1\n[[table]]\nname = \"t_trade\"\nunique = [[\"channel\", \"trade_no\"]]\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := auditDB(t, db, Options{Policy: pol})
	var got []lint.Finding
	for _, f := range res.Findings {
		if f.Code == "GS010" {
			got = append(got, f)
		}
	}
	type gs010 struct{ Table, Column, Message string }
	var short []gs010
	for _, f := range got {
		short = append(short, gs010{f.Table, f.ColumnName, f.Message})
	}
	want := []gs010{
		{"t_payment", "pay_no", "2 values of t_payment.pay_no stand on more than one row (5 rows in all): pay_no='P1' on 3 rows; pay_no='P2' on 2 rows"},
		{"t_stock", "stock", "6 rows of t_stock already hold a negative stock: id=2 stock=-1; id=4 stock=-3; id=5 stock=-2; id=6 stock=-7; id=7 stock=-1; …"},
		{"t_trade", "channel,trade_no", "1 value of t_trade (channel, trade_no) stands on more than one row (2 rows in all): channel='ali' trade_no='T1' on 2 rows"},
		// trade_no is a business key of the default policy (*_no) as well.
		{"t_trade", "trade_no", "1 value of t_trade.trade_no stands on more than one row (3 rows in all): trade_no='T1' on 3 rows"},
	}
	if d := cmp.Diff(want, short); d != "" {
		t.Errorf("GS010 (-want +got):\n%s", d)
	}
	for _, f := range got {
		if f.Severity != policy.SevError || f.Rule != "existing-violations" || !strings.Contains(f.Fix, "ALTER TABLE "+f.Table+" ADD ") {
			t.Errorf("%s %s: severity %s rule %s fix %q", f.Code, f.Table, f.Severity, f.Rule, f.Fix)
		}
	}

	// --no-data: the same schema findings, no scan.
	nodata := auditDB(t, db, Options{Policy: pol, NoData: true})
	for _, f := range nodata.Findings {
		if f.Code == "GS010" {
			t.Errorf("--no-data reported %s", f.Message)
		}
	}
	if len(nodata.Findings) != len(res.Findings)-len(got) {
		t.Errorf("--no-data: %d findings, want %d", len(nodata.Findings), len(res.Findings)-len(got))
	}
	if nodata.Queries >= res.Queries {
		t.Errorf("--no-data sent %d queries, the full audit %d", nodata.Queries, res.Queries)
	}
}

// TestAuditScanTimeout bounds a scan so tightly that the server stops it:
// the audit goes on and says the table was not checked.
func TestAuditScanTimeout(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		`CREATE TABLE t_big (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0, CHECK (stock >= 0)) ENGINE=InnoDB`,
		// Rows enough for a full scan to outlast a millisecond; one Exec, so
		// that the SET holds for the INSERT's session.
		`SET SESSION max_recursive_iterations = 1000000;
		INSERT INTO t_big (id, stock) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT i, i FROM n`,
	)
	res := auditDB(t, db, Options{ScanTimeout: time.Millisecond})
	want := []found{{"GS010", policy.SevWarning, "t_big", "stock"}}
	if d := cmp.Diff(want, summarize(res.Findings)); d != "" {
		t.Errorf("(-want +got):\n%s\n%s", d, dump(res.Findings))
	}
}

// TestRunFleet audits three targets, one of them a closed port: the two
// others are reported, the third is a failure, and no text holds the password.
func TestRunFleet(t *testing.T) {
	a, b := dbtest.MySQL(t), dbtest.MySQL(t)
	a.Exec(t, `CREATE TABLE t_nopk (name VARCHAR(8)) ENGINE=InnoDB`)
	b.Exec(t, `CREATE TABLE t_myisam (id INT PRIMARY KEY) ENGINE=MyISAM`)
	closed := "guard:" + a.Password + "@tcp(" + closedAddr(t) + ")/" + a.Name
	var targets []*target.Target
	for _, dsn := range []string{a.DSN, closed, b.DSN} {
		tg, err := target.Parse(dsn)
		if err != nil {
			t.Fatal(dbtest.Redact(err.Error()))
		}
		targets = append(targets, tg)
	}
	var done atomic.Int32
	rep := Run(context.Background(), targets, Options{Rules: rules.All(), Parallel: 2, Done: func(*TargetResult) { done.Add(1) }})
	if done.Load() != 3 {
		t.Errorf("Done called %d times", done.Load())
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Target != targets[1].Name() || !strings.Contains(rep.Failures[0].Error, "connect") {
		t.Errorf("failures = %v", dbtest.Redact(strings.Join(strings.Fields(jsonText(t, rep.Failures)), " ")))
	}
	type tf struct{ Target, Code string }
	var got []tf
	for _, f := range rep.Result.Findings {
		got = append(got, tf{f.Target, f.Code})
	}
	want := []tf{{targets[0].Name(), "GS009"}, {targets[2].Name(), "GS008"}}
	if targets[2].Name() < targets[0].Name() {
		want[0], want[1] = want[1], want[0]
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if rep.Result.Summary.Error != 2 || rep.Result.Summary.Tables != 2 {
		t.Errorf("summary = %+v", rep.Result.Summary)
	}
	noPassword(t, a.Password, rep)
}

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().(*net.TCPAddr)
	l.Close()
	return "127.0.0.1:" + strconv.Itoa(addr.Port)
}

// TestAuditMissingDatabase fails a target whose database does not exist.
func TestAuditMissingDatabase(t *testing.T) {
	db := dbtest.MySQL(t)
	missing := *db
	missing.DSN = strings.Replace(db.DSN, "/"+db.Name+"?", "/"+db.Name+"_gone?", 1)
	missing.Name = db.Name + "_gone"
	res := AuditTarget(context.Background(), parseTarget(t, &missing), Options{Rules: rules.All()})
	if res.Err == nil || !strings.Contains(res.Err.Error(), db.Name+"_gone") {
		t.Errorf("err = %v, want the missing database named", res.Err)
	}
	noPassword(t, db.Password, res.Err.Error())
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func dump(fs []lint.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Code + " " + string(f.Severity) + " " + f.Table + "." + f.ColumnName + ": " + f.Message + "\n")
	}
	return dbtest.Redact(b.String())
}
