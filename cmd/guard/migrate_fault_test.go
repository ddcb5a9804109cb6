package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/target"
)

// A server killed in the middle of a table copy: golang-migrate had recorded
// the version dirty before running the file, so the run is exit 4 with the
// whole command that clears it, not a bare runtime failure, and the
// driver's own log lines do not reach the terminal.
func TestMigrateServerKilledMidAlter(t *testing.T) {
	db := dbtest.PrivateMySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_big (id INT PRIMARY KEY, qty INT NOT NULL);",
		"000002_check.up.sql":  "ALTER TABLE t_big ADD CONSTRAINT chk_t_big_qty CHECK (qty >= 0), ALGORITHM=COPY;",
	})
	flags := []string{"--dsn", db.DSN, "--dir", dir}
	guardMigrate(t, db.Password, append([]string{"goto", "1"}, flags...)...).expect(t, "goto 1", exitClean, nil, nil)
	db.Exec(t, "INSERT INTO t_big VALUES (1, 1)")
	for n := 1; n < 1<<19; n *= 2 {
		db.Exec(t, fmt.Sprintf("INSERT INTO t_big SELECT id + %d, qty FROM t_big", n))
	}

	// A process of its own: the drivers' default loggers write to the
	// process's stderr, which only a child's shows.
	args, err := json.Marshal(append([]string{"guard", "migrate", "up"}, flags...))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan migrateRun, 1)
	go func() {
		var out, errb strings.Builder
		cmd := exec.Command(os.Args[0], "-test.run=^TestGuardHelperProcess$")
		cmd.Env = append(os.Environ(), helperEnv+"="+string(args))
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run()
		done <- migrateRun{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
	}()
	waitForQuery(t, db.SQL, "ALTER TABLE t_big")
	db.Server().Kill()
	var r migrateRun
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("guard migrate up still running a minute after the server was killed")
	}
	if strings.Contains(r.out+r.errOut, db.Password) {
		t.Fatal("the password appears in the output")
	}
	force := fmt.Sprintf("once repaired: guard migrate force --dsn 'guard:PASSWORD@tcp(%s)/%s' --dir %s 1", db.Addr, db.Name, dir)
	r.expect(t, "up, server killed", exitDirty, nil, []string{
		filepath.Join(dir, "000002_check.up.sql") + " failed",
		"golang-migrate recorded the version dirty before running the file: version 2 is dirty",
		"Once the server is back, see what " + filepath.Join(dir, "000002_check.up.sql") + " left",
		force,
	})
	for _, raw := range []string{"[mysql]", "packets.go", "redis: "} {
		if strings.Contains(r.errOut, raw) {
			t.Errorf("stderr holds a raw driver log line (%q):\n%s", raw, dbtest.Redact(r.errOut))
		}
	}
}

// waitForQuery waits until a session of the server runs a statement that
// starts with prefix.
func waitForQuery(t *testing.T, pool *sql.DB, prefix string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		err := pool.QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE CONCAT(?, '%')", prefix).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no session ran %q within 30s", prefix)
}

// A transaction open for 30 s on the table: the migration gives up after
// its lock waits (exit 3), names the session, applied nothing and leaves
// the version clean.
func TestMigrateBehindLongTransaction(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, cliFiles)
	pw := db.Password
	flags := []string{"--dsn", db.DSN, "--dir", dir}
	guardMigrate(t, pw, append([]string{"goto", "1"}, flags...)...).expect(t, "goto 1", exitClean, nil, nil)
	holder := db.HoldTransaction(t, 30*time.Second, "SELECT COUNT(*) FROM t_stock")

	start := time.Now()
	r := guardMigrate(t, pw, append([]string{"up", "--ddl-lock-timeout", "1s"}, flags...)...)
	took := time.Since(start)
	id := strconv.FormatInt(holder, 10)
	r.expect(t, "up behind a transaction", exitRuntime, []string{"waited 1s for a lock (attempt 1 of 3)"}, []string{
		"000002_check.up.sql: gave up after 3 wait(s) of 1s for a lock",
		"Lock wait timeout exceeded",
		"nothing was applied, version 1 stays clean",
		"the oldest open transaction is session " + id + " (guard@",
		"KILL " + id,
	})
	// The holder lives 30 s; the run gives up after its three waits.
	if took > 20*time.Second {
		t.Errorf("up took %s: it waited for the transaction", took)
	}
	guardMigrate(t, pw, append([]string{"version"}, flags...)...).expect(t, "version", exitClean, []string{"1\n"}, nil)

	// The json report names the holder too.
	r = guardMigrate(t, pw, append([]string{"up", "--ddl-lock-timeout", "1s", "--format", "json"}, flags...)...)
	r.expect(t, "up json", exitRuntime, nil, nil)
	var doc struct {
		To    struct{ Version int }
		Error struct {
			Code        int
			LockHolders []struct{ ID int64 } `json:"lock_holders"`
		}
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("up json: %v\n%s", err, dbtest.Redact(r.out))
	}
	if doc.To.Version != 1 || doc.Error.Code != exitRuntime || len(doc.Error.LockHolders) == 0 || doc.Error.LockHolders[0].ID != holder {
		t.Errorf("up json: %+v, want version 1, code 3, holder %d", doc, holder)
	}

	// --ddl-lock-timeout 0 leaves the server's own wait: the run waits for
	// the transaction and goes through once it ends.
	db.Exec(t, "KILL "+id)
	guardMigrate(t, pw, append([]string{"up", "--ddl-lock-timeout", "0"}, flags...)...).expect(t, "up", exitClean, []string{"version 1 -> 3"}, nil)
	guardMigrate(t, pw, append([]string{"up", "--ddl-lock-timeout", "-1s"}, flags...)...).expect(t, "negative timeout", exitInput, nil, []string{"--ddl-lock-timeout -1s"})
}

func TestForceCommand(t *testing.T) {
	for _, tc := range []struct {
		dsn     string
		fromEnv bool
		dir     string
		v       int
		want    string
		note    bool
	}{
		{"app:s3cr/et@tcp(db:3306)/shop", false, "migrations", 3,
			"guard migrate force --dsn 'app:PASSWORD@tcp(db:3306)/shop' --dir migrations 3", true},
		{"mysql://app:s3cr%2Fet@db:3306/shop?tls=true", false, "db/my migrations", -1,
			"guard migrate force --dsn 'app:PASSWORD@tcp(db:3306)/shop?tls=true' --dir 'db/my migrations' -- -1", true},
		{"app@tcp(db:3306)/shop", false, "m", 0, "guard migrate force --dsn 'app@tcp(db:3306)/shop' --dir m 0", false},
		{"app:s3cr/et@tcp(db:3306)/shop", true, "it's", 2, `guard migrate force --dir 'it'\''s' 2`, false},
	} {
		tgt, err := target.Parse(tc.dsn)
		if err != nil {
			t.Fatal(err)
		}
		s := &session{args: &migrateArgs{dir: tc.dir, fromEnv: tc.fromEnv}, target: tgt}
		if got := s.forceCommand(tc.v); got != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.dsn, got, tc.want)
		}
		if got := s.forceNote() != ""; got != tc.note {
			t.Errorf("%s: note %q", tc.dsn, s.forceNote())
		}
		if strings.Contains(s.forceCommand(tc.v)+s.forceNote(), "s3cr") {
			t.Errorf("%s: the password shows", tc.dsn)
		}
	}
}
