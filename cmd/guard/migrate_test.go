package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// migrateRun is one guard migrate invocation and what it printed.
type migrateRun struct {
	out, errOut string
	code        int
}

// guardMigrate runs guard migrate SUB --dsn DSN ARGS… and fails t if a
// password shows in stdout or stderr.
func guardMigrate(t *testing.T, secret string, args ...string) migrateRun {
	t.Helper()
	if secret == "" {
		t.Fatal("no password to look for")
	}
	out, errOut, code := guard(t, append([]string{"migrate"}, args...)...)
	for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
		if strings.Contains(s, secret) {
			t.Errorf("guard migrate %s: the password appears in %s:\n%s", dbtest.Redact(strings.Join(args, " ")), name, dbtest.Redact(s))
		}
	}
	return migrateRun{out, errOut, code}
}

func (r migrateRun) expect(t *testing.T, what string, code int, stdout, stderr []string) {
	t.Helper()
	if r.code != code {
		t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, r.code, code, dbtest.Redact(r.out), dbtest.Redact(r.errOut))
	}
	for _, s := range stdout {
		if !strings.Contains(r.out, s) {
			t.Errorf("%s: stdout lacks %q:\n%s", what, s, dbtest.Redact(r.out))
		}
	}
	for _, s := range stderr {
		if !strings.Contains(r.errOut, s) {
			t.Errorf("%s: stderr lacks %q:\n%s", what, s, dbtest.Redact(r.errOut))
		}
	}
}

func writeMigrations(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var cliFiles = map[string]string{
	"000001_create.up.sql":   "CREATE TABLE t_stock (id INT PRIMARY KEY, sku VARCHAR(16) NOT NULL, qty INT NOT NULL DEFAULT 0);",
	"000001_create.down.sql": "DROP TABLE t_stock;",
	"000002_check.up.sql":    "ALTER TABLE t_stock ADD CONSTRAINT chk_t_stock_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY;",
	"000002_check.down.sql":  "ALTER TABLE t_stock DROP CONSTRAINT chk_t_stock_qty_nonneg;",
	"000003_unique.up.sql":   "ALTER TABLE t_stock ADD UNIQUE INDEX uk_t_stock_sku (sku), ALGORITHM=INPLACE, LOCK=NONE;",
	"000003_unique.down.sql": "ALTER TABLE t_stock DROP INDEX uk_t_stock_sku;",
}

func TestMigrateCommands(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, cliFiles)
	pw := db.Password
	flags := []string{"--dsn", db.DSN, "--dir", dir}

	guardMigrate(t, pw, append([]string{"status"}, flags...)...).expect(t, "status", exitClean,
		[]string{"version none", "1        pending  create  000001_create.up.sql 000001_create.down.sql"}, nil)
	guardMigrate(t, pw, append([]string{"goto"}, append(flags, "1")...)...).expect(t, "goto 1", exitClean,
		[]string{"applied " + filepath.Join(dir, "000001_create.up.sql"), "version none -> 1"}, nil)
	db.Exec(t, "INSERT INTO t_stock VALUES (1, 'a', 3), (2, 'b', 0)")

	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "up", exitClean, []string{
		"preflight ok: " + filepath.Join(dir, "000002_check.up.sql") + ":1:1: t_stock: CHECK chk_t_stock_qty_nonneg (`qty`>=0): no existing row breaks it",
		"applied " + filepath.Join(dir, "000003_unique.up.sql"),
		"verified: t_stock: CHECK chk_t_stock_qty_nonneg (`qty`>=0)",
		"verified: t_stock: UNIQUE uk_t_stock_sku (`sku`)",
		"version 1 -> 3",
	}, nil)
	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "up again", exitClean, []string{"no change: version 3"}, nil)
	guardMigrate(t, pw, append([]string{"version"}, flags...)...).expect(t, "version", exitClean, []string{"3\n"}, nil)
	// The README's form: the flags before the subcommand, and on both sides
	// (the subcommand's own win).
	guardMigrate(t, pw, append(flags, "version")...).expect(t, "flags before version", exitClean, []string{"3\n"}, nil)
	guardMigrate(t, pw, append(append([]string{"--format", "text"}, flags...), "status", "--format", "json")...).expect(t, "flags on both sides", exitClean, []string{`"migrations"`}, nil)

	// Flags after the argument, and the environment variable for the DSN.
	t.Setenv("GUARD_DSN", db.DSN)
	guardMigrate(t, pw, "down", "1", "--dir", dir).expect(t, "down 1", exitClean,
		[]string{"undid " + filepath.Join(dir, "000003_unique.down.sql"), "version 3 -> 2"}, nil)

	r := guardMigrate(t, pw, "status", "--format", "json", "--dir", dir)
	r.expect(t, "status json", exitClean, nil, nil)
	var st struct {
		Tool       string
		Target     string
		State      struct{ Version int }
		Migrations []struct {
			Version uint
			State   string
		}
	}
	if err := json.Unmarshal([]byte(r.out), &st); err != nil {
		t.Fatalf("status json: %v\n%s", err, dbtest.Redact(r.out))
	}
	if st.Tool != "guard" || st.Target != db.Addr+"/"+db.Name || st.State.Version != 2 || len(st.Migrations) != 3 || st.Migrations[2].State != "pending" {
		t.Errorf("status json: %+v", st)
	}

	// Usage and input errors: exit 2, nothing applied.
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{nil, "migrate needs a subcommand"},
		{[]string{"sideways"}, `unknown subcommand "sideways"`},
		{[]string{"down", "--dir", dir}, "missing argument"},
		{[]string{"down", "--dir", dir, "zero"}, `down "zero"`},
		{[]string{"goto", "--dir", dir, "9"}, "goto 9: no migration of that version"},
		{[]string{"down", "--dir", dir, "5"}, "down 5: 2 applied"},
		{[]string{"up", "--dir", dir, "--format", "sarif"}, `--format "sarif"`},
		{[]string{"up", "--dir", filepath.Join(dir, "nope")}, "migrations directory"},
		{[]string{"force", "--dir", dir, "x"}, `force "x"`},
		{[]string{"up", "--dir", dir, "extra"}, `unexpected argument "extra"`},
	} {
		guardMigrate(t, pw, tc.args...).expect(t, strings.Join(tc.args, " "), exitInput, nil, []string{tc.err})
	}
	if got := stateOf(t, db); got != "2 false" {
		t.Errorf("state after the input errors: %s", got)
	}
}

// stateOf reads schema_migrations as "VERSION DIRTY".
func stateOf(t *testing.T, db *dbtest.DB) string {
	t.Helper()
	var v int
	var dirty bool
	if err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&v, &dirty); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v, " ", dirty)
}

func TestMigratePreflightRefusal(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, cliFiles)
	pw := db.Password
	flags := []string{"--dsn", db.DSN, "--dir", dir}
	guardMigrate(t, pw, append([]string{"goto"}, append(flags, "1")...)...).expect(t, "goto 1", exitClean, nil, nil)
	db.Exec(t, "INSERT INTO t_stock VALUES (1, 'a', -3), (2, 'a', 0), (3, 'b', 1)")

	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "up", exitRuntime, []string{
		"preflight FAIL: " + filepath.Join(dir, "000002_check.up.sql") + ":1:1: t_stock: CHECK chk_t_stock_qty_nonneg (`qty`>=0): 1 row breaks it",
		"    id=1 qty=-3\n",
		"preflight FAIL: " + filepath.Join(dir, "000003_unique.up.sql") + ":1:1: t_stock: UNIQUE uk_t_stock_sku (`sku`): 1 duplicate value held by 2 rows",
		"    sku=a (2 rows)\n",
	}, []string{"nothing was applied"})

	r := guardMigrate(t, pw, append([]string{"up", "--format", "json"}, flags...)...)
	r.expect(t, "up json", exitRuntime, nil, nil)
	var doc struct {
		From, To  struct{ Version int }
		Applied   []any
		Preflight []struct {
			Guard struct {
				Kind, Table, Name, File string
				Line                    int
			}
			Status  string
			Rows    int64
			Groups  int64
			Samples []struct {
				Values []struct {
					Column string
					Value  *string
				}
				Rows int64
			}
		}
		Error struct{ Code int }
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, dbtest.Redact(r.out))
	}
	type probe struct {
		Kind, Name, Status string
		Rows, Groups       int64
		FirstSample        string
	}
	var got []probe
	for _, p := range doc.Preflight {
		pr := probe{p.Guard.Kind, p.Guard.Name, p.Status, p.Rows, p.Groups, ""}
		if len(p.Samples) > 0 {
			for _, v := range p.Samples[0].Values {
				pr.FirstSample += v.Column + "=" + *v.Value + " "
			}
		}
		got = append(got, pr)
	}
	want := []probe{
		{"check", "chk_t_stock_qty_nonneg", "fail", 1, 0, "id=1 qty=-3 "},
		{"unique", "uk_t_stock_sku", "fail", 2, 1, "sku=a "},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("json preflight (-want +got):\n%s", d)
	}
	if doc.Error.Code != exitRuntime || doc.From.Version != 1 || doc.To.Version != 1 || len(doc.Applied) != 0 {
		t.Errorf("json: %+v", doc)
	}
	if got := stateOf(t, db); got != "1 false" {
		t.Errorf("state after refusals: %s", got)
	}
}

func TestMigrateDirtyAndForce(t *testing.T) {
	db := dbtest.MySQL(t)
	files := map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL DEFAULT 0);",
		"000002_two.up.sql":    "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0;\nALTER TABLE t_stock ADD CONSTRAINT chk_qty CHECK (qtty >= 0);",
	}
	dir := writeMigrations(t, files)
	pw := db.Password
	flags := []string{"--dsn", db.DSN, "--dir", dir}
	hint := "version 2 is dirty: fix the database by hand, then run `guard migrate force 1`"

	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "failing up", exitDirty,
		[]string{"applied " + filepath.Join(dir, "000001_create.up.sql")},
		[]string{filepath.Join(dir, "000002_two.up.sql") + " failed: Error 1054", hint})
	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "up on dirty", exitDirty, nil, []string{hint})
	guardMigrate(t, pw, append([]string{"version"}, flags...)...).expect(t, "version on dirty", exitDirty, []string{"2 (dirty)"}, nil)
	guardMigrate(t, pw, append([]string{"status"}, flags...)...).expect(t, "status on dirty", exitDirty, []string{"2        dirty    two"}, nil)
	r := guardMigrate(t, pw, append([]string{"up", "--format", "json"}, flags...)...)
	r.expect(t, "up json on dirty", exitDirty, []string{`"hint": "guard migrate force 1"`}, nil)

	// Repair: undo the first statement, force, fix the file, up.
	db.Exec(t, "ALTER TABLE t_stock DROP COLUMN version")
	guardMigrate(t, pw, append([]string{"force"}, append(flags, "1")...)...).expect(t, "force 1", exitClean, []string{"forced version 1"}, nil)
	fixed := strings.Replace(files["000002_two.up.sql"], "qtty", "qty", 1)
	if err := os.WriteFile(filepath.Join(dir, "000002_two.up.sql"), []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "up after the fix", exitClean,
		[]string{"verified: t_stock: column version NOT NULL", "verified: t_stock: CHECK chk_qty (`qty`>=0)", "version 1 -> 2"}, nil)
	guardMigrate(t, pw, append([]string{"force"}, append(flags, "--", "-1")...)...).expect(t, "force -1", exitClean, []string{"forced version none"}, nil)
}

func TestMigrateParseErrorAndSecrets(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_ok.up.sql":  "CREATE TABLE t (id INT PRIMARY KEY);",
		"000002_bad.up.sql": "-- a typo on line 3\nALTER TABLE t ADD COLUMN a INT;\nALTER TABLE t ADD COLUMN b INT NOT NUL;",
	})
	pw := db.Password
	guardMigrate(t, pw, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "unparsable file", exitInput, nil,
		[]string{filepath.Join(dir, "000002_bad.up.sql") + ":3:"})
	var n int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 't'", db.Name).Scan(&n); err != nil || n != 0 {
		t.Errorf("a parse error applied something: %d tables t (%v)", n, err)
	}

	// A wrong password: the server refuses, and neither password shows.
	wrong := strings.Replace(db.DSN, ":"+pw+"@", ":n0t-the-pw@", 1)
	if wrong == db.DSN {
		t.Fatal("cannot build a DSN with a wrong password")
	}
	r := guardMigrate(t, "n0t-the-pw", "status", "--dsn", wrong, "--dir", dir)
	r.expect(t, "wrong password", exitRuntime, nil, []string{"Access denied"})
}

// helperEnv holds the arguments of guard when the test binary runs as a
// guard process (TestMigrateConcurrentUp, the fault and signal tests).
const helperEnv = "GUARD_HELPER_ARGS"

// TestGuardHelperProcess is guard itself when helperEnv is set: main's
// command line, on the context the stop signals cancel, exiting with its
// code. Otherwise it does nothing.
func TestGuardHelperProcess(t *testing.T) {
	raw := os.Getenv(helperEnv)
	if raw == "" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(99)
	}
	os.Exit(runMain(args))
}

// TestMigrateConcurrentUp runs two guard migrate up processes at once: each
// migration is applied once, and both exit 0.
func TestMigrateConcurrentUp(t *testing.T) {
	db := dbtest.MySQL(t)
	files := map[string]string{
		"000001_log.up.sql": "CREATE TABLE t_log (version INT NOT NULL);\nCREATE TABLE t_item (id INT PRIMARY KEY);",
	}
	for v := 2; v <= 6; v++ {
		files[fmt.Sprintf("%06d_col.up.sql", v)] = fmt.Sprintf("ALTER TABLE t_item ADD COLUMN c%d INT;\nDO SLEEP(0.05);\nINSERT INTO t_log VALUES (%d);", v, v)
	}
	dir := writeMigrations(t, files)
	args, err := json.Marshal([]string{"guard", "migrate", "up", "--dsn", db.DSN, "--dir", dir})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestGuardHelperProcess$")
			cmd.Env = append(os.Environ(), helperEnv+"="+string(args))
			out, err := cmd.CombinedOutput()
			outs[i] = string(out)
			if err != nil {
				t.Errorf("process %d: %v\n%s", i, err, dbtest.Redact(string(out)))
			}
		}()
	}
	wg.Wait()
	// One process applied the six files, the other found nothing to do.
	applied := strings.Count(outs[0], "applied ") + strings.Count(outs[1], "applied ")
	if applied != 6 || !strings.Contains(outs[0]+outs[1], "no change: version 6") {
		t.Errorf("outputs:\n%s\n---\n%s", dbtest.Redact(outs[0]), dbtest.Redact(outs[1]))
	}
	var n, distinct int
	if err := db.SQL.QueryRow("SELECT COUNT(*), COUNT(DISTINCT version) FROM t_log").Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n != 5 || distinct != 5 {
		t.Errorf("t_log holds %d rows for %d versions, want 5 for 5", n, distinct)
	}
	if got := stateOf(t, db); got != "6 false" {
		t.Errorf("state %s, want 6", got)
	}
}

// TestMigratedDatabasePassesAudit: golang-migrate's schema_migrations (and a
// drill's leftover scratch copy) are bookkeeping, not user tables: auditing
// a database guard migrated reports nothing on them.
func TestMigratedDatabasePassesAudit(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, cliFiles)
	guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "up", exitClean, nil, nil)
	db.Exec(t, "CREATE TABLE guard_drill_0011223344556677 (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL)")
	for _, format := range []string{"text", "json"} {
		out, errOut, code := guard(t, "audit", "--dsn", db.DSN, "--format", format, "--fail-on", "warning")
		if code != exitClean || strings.Contains(out, "schema_migrations") || strings.Contains(out, "guard_drill_") {
			t.Errorf("audit --format %s: exit %d, want 0 and nothing on bookkeeping tables\nstdout:\n%s\nstderr:\n%s",
				format, code, dbtest.Redact(out), dbtest.Redact(errOut))
		}
	}
}
