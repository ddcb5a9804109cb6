package migrator

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// holdTable opens a transaction that reads t_lock and keeps it open for
// 30 s, as a long report or a forgotten console session does: its metadata
// lock on the table makes every DDL on it wait. It returns the session's
// id.
func holdTable(t *testing.T, db *dbtest.DB) int64 {
	t.Helper()
	return holdTableFor(t, db, 30*time.Second)
}

// holdTableFor is holdTable for d.
func holdTableFor(t *testing.T, db *dbtest.DB, d time.Duration) int64 {
	t.Helper()
	return db.HoldTransaction(t, d, "SELECT COUNT(*) FROM t_lock")
}

func lockWaitFiles() map[string]string {
	return map[string]string{
		"000001_create.up.sql":   "CREATE TABLE t_lock (id INT PRIMARY KEY, qty INT NOT NULL DEFAULT 0);",
		"000001_create.down.sql": "DROP TABLE t_lock;",
		"000002_check.up.sql":    "ALTER TABLE t_lock ADD CONSTRAINT chk_t_lock_qty CHECK (qty >= 0), ALGORITHM=COPY;",
		"000002_check.down.sql":  "ALTER TABLE t_lock DROP CONSTRAINT chk_t_lock_qty;",
	}
}

func TestDDLBehindLongTransactionGivesUpClean(t *testing.T) {
	db := dbtest.MySQL(t)
	ctx := context.Background()
	var log strings.Builder
	m := open(t, db, writeDir(t, lockWaitFiles()), Options{DDLLockTimeout: time.Second, Log: &log})
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(err)
	}
	db.Exec(t, "INSERT INTO t_lock VALUES (1, 5)")
	holder := holdTable(t, db)

	start := time.Now()
	_, err := m.Up(ctx)
	took := time.Since(start)
	var wait *LockWaitError
	if !errors.As(err, &wait) {
		t.Fatalf("up behind an open transaction: err = %v, want a LockWaitError", err)
	}
	if wait.Attempts != DefaultDDLLockAttempts || wait.Version != 1 {
		t.Errorf("attempts %d, version %d; want %d attempts at version 1", wait.Attempts, wait.Version, DefaultDDLLockAttempts)
	}
	if len(wait.Holders) == 0 || wait.Holders[0].ID != holder {
		t.Errorf("holders = %+v, want session %d first (err %v)", wait.Holders, holder, wait.HoldersErr)
	}
	for _, s := range []string{"gave up after 3 wait(s) of 1s", "nothing was applied, version 1 stays clean", "session " + itoa(holder)} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	if !strings.Contains(wait.Explain(), "KILL "+itoa(holder)) {
		t.Errorf("explain %q does not name the session to end", wait.Explain())
	}
	if strings.Count(log.String(), "trying again") != DefaultDDLLockAttempts-1 {
		t.Errorf("log does not report each retry:\n%s", log.String())
	}
	// Three waits of a second and two pauses, never the holder's life.
	if took > 10*time.Second {
		t.Errorf("up took %s behind the transaction", took)
	}
	if got := state(t, db); got != (State{Version: 1}) {
		t.Errorf("schema_migrations = %v, want 1 clean", got)
	}
	if c := constraints(t, db); contains(c, "chk_t_lock_qty") {
		t.Errorf("the CHECK was added: %v", c)
	}

	// Once the transaction ends, the same run goes through.
	db.Exec(t, "KILL "+itoa(holder))
	if _, err := m.Up(ctx); err != nil {
		t.Fatalf("up once the transaction ended: %v", err)
	}
	if got := state(t, db); got != (State{Version: 2}) {
		t.Errorf("schema_migrations = %v, want 2", got)
	}
}

// A file of several statements keeps the server's own lock_wait_timeout: a
// timeout on its second statement would leave the first applied, dirty.
func TestDDLLockTimeoutOnlyForSingleStatementFiles(t *testing.T) {
	db := dbtest.MySQL(t)
	ctx := context.Background()
	files := lockWaitFiles()
	files["000002_check.up.sql"] = "ALTER TABLE t_lock ADD COLUMN note VARCHAR(20);\nALTER TABLE t_lock ADD CONSTRAINT chk_t_lock_qty CHECK (qty >= 0);"
	var log strings.Builder
	m := open(t, db, writeDir(t, files), Options{DDLLockTimeout: time.Second, Log: &log})
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(err)
	}
	holder := holdTable(t, db)
	done := make(chan error, 1)
	go func() {
		_, err := m.Up(ctx)
		done <- err
	}()
	// The migration waits past the timeout; ending the holder lets it
	// through, whole.
	time.Sleep(2500 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("up returned while the transaction was open: %v", err)
	default:
	}
	db.Exec(t, "KILL "+itoa(holder))
	if err := <-done; err != nil {
		t.Fatalf("up: %v", err)
	}
	if got := state(t, db); got != (State{Version: 2}) {
		t.Errorf("schema_migrations = %v, want 2", got)
	}
	if !strings.Contains(log.String(), "000002_check.up.sql holds several statements") {
		t.Errorf("log does not say the file runs without the timeout:\n%s", log.String())
	}
}

func TestDDLLockTimeoutIsSessionOnly(t *testing.T) {
	db := dbtest.MySQL(t)
	var global int64
	if err := db.SQL.QueryRow("SELECT @@GLOBAL.lock_wait_timeout").Scan(&global); err != nil {
		t.Fatal(err)
	}
	m := open(t, db, writeDir(t, lockWaitFiles()), Options{DDLLockTimeout: 2 * time.Second})
	if _, err := m.Up(context.Background()); err != nil {
		t.Fatal(err)
	}
	var after int64
	if err := db.SQL.QueryRow("SELECT @@GLOBAL.lock_wait_timeout").Scan(&after); err != nil || after != global {
		t.Errorf("global lock_wait_timeout %d after the run, want %d (%v)", after, global, err)
	}
	// The migration connection gets its session value back.
	ctx := context.Background()
	mg, conn, done, err := m.engine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if err := setLockWaitTimeout(ctx, conn, 77); err != nil {
		t.Fatal(err)
	}
	step := Step{Version: 2, File: filepath.Join(m.opts.Dir, "000002_check.down.sql")}
	if err := m.runStep(ctx, mg, conn, step, -1); err != nil {
		t.Fatal(err)
	}
	var session int64
	if err := conn.QueryRowContext(ctx, "SELECT @@SESSION.lock_wait_timeout").Scan(&session); err != nil || session != 77 {
		t.Errorf("session lock_wait_timeout %d after the step, want 77 (%v)", session, err)
	}
	for _, tc := range []struct {
		opt  time.Duration
		want int64
	}{{0, 5}, {1500 * time.Millisecond, 2}, {-1, 0}} {
		m.opts.DDLLockTimeout = tc.opt
		if got := m.ddlLockTimeout(); got != tc.want {
			t.Errorf("DDLLockTimeout %s: %d s, want %d", tc.opt, got, tc.want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
