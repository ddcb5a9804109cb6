package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// fleetFiles create a payment table, record each later version in a log
// table (so that a migration applied twice shows), and add a UNIQUE
// business key that a duplicate pay_no breaks.
var fleetFiles = map[string]string{
	"000001_create.up.sql":   "CREATE TABLE t_payment (id INT PRIMARY KEY, pay_no VARCHAR(32) NOT NULL, amount INT NOT NULL);",
	"000001_create.down.sql": "DROP TABLE t_payment;",
	"000002_log.up.sql":      "CREATE TABLE t_log (v INT NOT NULL);",
	"000002_log.down.sql":    "DROP TABLE t_log;",
	"000003_mark.up.sql":     "INSERT INTO t_log (v) VALUES (3);",
	"000003_mark.down.sql":   "DELETE FROM t_log WHERE v = 3;",
	"000004_unique.up.sql":   "ALTER TABLE t_payment ADD UNIQUE INDEX uk_t_payment_pay_no (pay_no), ALGORITHM=INPLACE, LOCK=NONE;",
	"000004_unique.down.sql": "ALTER TABLE t_payment DROP INDEX uk_t_payment_pay_no;",
	"000005_mark.up.sql":     "INSERT INTO t_log (v) VALUES (5);",
	"000005_mark.down.sql":   "DELETE FROM t_log WHERE v = 5;",
}

// fleetDBs are three databases on the test server, each with its own
// account, and a targets file naming them.
type fleetDBs struct {
	dbs     []*dbtest.DB
	targets string
	dir     string
}

func newFleet(t *testing.T, files map[string]string) *fleetDBs {
	t.Helper()
	f := &fleetDBs{dir: writeMigrations(t, files)}
	lines := []string{"# shards of the payment service"}
	for i := 0; i < 3; i++ {
		db := dbtest.MySQL(t)
		f.dbs = append(f.dbs, db)
		lines = append(lines, db.DSN, "")
	}
	f.targets = filepath.Join(t.TempDir(), "targets.txt")
	if err := os.WriteFile(f.targets, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// run runs guard migrate ARGS… --targets FILE --dir DIR and fails t if any
// password of the fleet shows.
func (f *fleetDBs) run(t *testing.T, args ...string) migrateRun {
	t.Helper()
	args = append(append([]string{"migrate"}, args...), "--targets", f.targets, "--dir", f.dir)
	out, errOut, code := guard(t, args...)
	for _, db := range f.dbs {
		if strings.Contains(out+errOut, db.Password) {
			t.Errorf("guard %s: a password appears in the output:\n%s\n%s", strings.Join(args, " "), dbtest.Redact(out), dbtest.Redact(errOut))
		}
	}
	return migrateRun{out, errOut, code}
}

// versions reads the golang-migrate state of every database: "4", "1 dirty".
func (f *fleetDBs) versions(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, db := range f.dbs {
		var v int
		var dirty bool
		if err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&v, &dirty); err != nil {
			t.Fatalf("%s: read version: %v", db.Name, err)
		}
		s := itoa(v)
		if dirty {
			s += " dirty"
		}
		out = append(out, s)
	}
	return out
}

func itoa(v int) string { b, _ := json.Marshal(v); return string(b) }

// fleetDoc is the json report of a fleet run.
type fleetDoc struct {
	Command string
	Targets []struct {
		Target   string
		From, To *struct{ Version int }
		Steps    int
		Outcome  string
		ExitCode int `json:"exit_code"`
	}
	ExitCode int `json:"exit_code"`
}

func parseFleet(t *testing.T, r migrateRun) fleetDoc {
	t.Helper()
	var doc fleetDoc
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("fleet json: %v\n%s", err, dbtest.Redact(r.out))
	}
	return doc
}

// prepare brings every database to version 1 and fills the payments,
// shard 2 (index 1) with a duplicate pay_no.
func (f *fleetDBs) prepare(t *testing.T) {
	t.Helper()
	f.run(t, "goto", "1").expect(t, "goto 1", exitClean, []string{"3 targets: 3 applied"}, nil)
	for i, db := range f.dbs {
		db.Exec(t, "INSERT INTO t_payment VALUES (1, 'P-1', 10), (2, 'P-2', 20)")
		if i == 1 {
			db.Exec(t, "INSERT INTO t_payment VALUES (3, 'P-2', 30)")
		}
	}
}

func TestMigrateFleetPreflightsEveryTargetFirst(t *testing.T) {
	f := newFleet(t, fleetFiles)
	f.prepare(t)

	r := f.run(t, "up", "--format", "json", "--parallel", "3")
	r.expect(t, "up", exitRuntime, nil, []string{f.dbs[1].Addr + "/" + f.dbs[1].Name + ": preflight: 1 constraint(s)"})
	doc := parseFleet(t, r)
	var outcomes []string
	for _, row := range doc.Targets {
		outcomes = append(outcomes, row.Outcome)
		if row.Steps != 0 {
			t.Errorf("%s: %d steps applied, want none", row.Target, row.Steps)
		}
	}
	if d := cmp.Diff([]string{"not started", "refused", "not started"}, outcomes); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"1", "1", "1"}, f.versions(t)); d != "" {
		t.Errorf("versions after a refused fleet (-want +got):\n%s", d)
	}

	// Text: one row per target, the refusal's verdict prefixed with its target.
	r = f.run(t, "up")
	bad := f.dbs[1].Addr + "/" + f.dbs[1].Name
	r.expect(t, "up text", exitRuntime, []string{
		bad + ": preflight FAIL: ",
		"1 duplicate value held by 2 rows",
		"TARGET", bad, "refused",
		"3 targets: 2 not started, 1 refused",
	}, nil)

	// Each target on its own: the good ones reach the last version, the bad
	// one stays where it was, clean.
	r = f.run(t, "up", "--on-error", "continue", "--format", "json")
	r.expect(t, "up --on-error continue", exitRuntime, nil, nil)
	doc = parseFleet(t, r)
	outcomes = nil
	for _, row := range doc.Targets {
		outcomes = append(outcomes, row.Outcome)
	}
	if d := cmp.Diff([]string{"applied", "refused", "applied"}, outcomes); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if doc.Targets[0].Steps != 4 || doc.ExitCode != exitRuntime {
		t.Errorf("steps %d exit %d, want 4 and 3", doc.Targets[0].Steps, doc.ExitCode)
	}
	if d := cmp.Diff([]string{"5", "1", "5"}, f.versions(t)); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}

	// status of the fleet: the refused shard has 4 pending.
	f.run(t, "status").expect(t, "status", exitClean, []string{bad + "  1        4"}, nil)
}

// A target that fails while applying stops the fleet: no target starts
// after it (--parallel 1: in order), and the version it left is reported.
func TestMigrateFleetStopsAfterFailure(t *testing.T) {
	f := newFleet(t, fleetFiles)
	f.run(t, "goto", "1").expect(t, "goto 1", exitClean, nil, nil)
	// Shard 2 already has the log table: its migration 2 fails mid-run.
	f.dbs[1].Exec(t, "CREATE TABLE t_log (v INT)")
	r := f.run(t, "up", "--parallel", "1", "--format", "json")
	r.expect(t, "up", exitDirty, nil, []string{"version 2 is dirty", "once repaired: guard migrate force --dsn "})
	var outcomes []string
	for _, row := range parseFleet(t, r).Targets {
		outcomes = append(outcomes, row.Outcome)
	}
	if d := cmp.Diff([]string{"applied", "dirty", "not started"}, outcomes); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"5", "2 dirty", "1"}, f.versions(t)); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}
	f.run(t, "status").expect(t, "status of a dirty fleet", exitDirty, nil, nil)
}

// Two fleet runs at once apply each migration once per target: guard's
// lock on each database serialises them, the second finds nothing to do.
func TestMigrateFleetConcurrentRuns(t *testing.T) {
	f := newFleet(t, fleetFiles)
	var wg sync.WaitGroup
	runs := make([]migrateRun, 2)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = f.run(t, "up", "--format", "json", "--parallel", "3")
		}()
	}
	wg.Wait()
	steps := map[string]int{}
	for i, r := range runs {
		r.expect(t, "concurrent run "+itoa(i), exitClean, nil, nil)
		for _, row := range parseFleet(t, r).Targets {
			steps[row.Target] += row.Steps
		}
	}
	for _, db := range f.dbs {
		name := db.Addr + "/" + db.Name
		if steps[name] != 5 {
			t.Errorf("%s: %d steps over both runs, want 5", name, steps[name])
		}
		var marks []int
		rows, err := db.SQL.Query("SELECT v FROM t_log ORDER BY v")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v int
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			marks = append(marks, v)
		}
		rows.Close()
		if d := cmp.Diff([]int{3, 5}, marks); d != "" {
			t.Errorf("%s: migrations recorded in t_log (-want +got):\n%s", name, d)
		}
	}
	if d := cmp.Diff([]string{"5", "5", "5"}, f.versions(t)); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}
}

func TestMigrateFleetUsage(t *testing.T) {
	dir := writeMigrations(t, fleetFiles)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"force", "--dsn", "u:p@tcp(127.0.0.1:1)/a", "--dsn", "u:p@tcp(127.0.0.1:1)/b", "1"}, "migrate force works on one database"},
		{[]string{"up", "--dsn", "u:p@tcp(127.0.0.1:1)/a", "--parallel", "0"}, "--parallel 0: want 1 or more"},
		{[]string{"up", "--dsn", "u:p@tcp(127.0.0.1:1)/a", "--on-error", "skip"}, `--on-error "skip": want stop or continue`},
		{[]string{"status", "--dsn", "u:p@tcp(127.0.0.1:1)/a", "--on-error", "continue"}, "unknown flag --on-error"},
		{[]string{"up", "--dsn", "u:p@tcp(127.0.0.1:1)/a", "--dsn", "u:q@tcp(127.0.0.1:1)/a"}, "is given twice"},
	} {
		_, errOut, code := guard(t, append(append([]string{"migrate"}, tc.args...), "--dir", dir)...)
		if code != exitInput || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
