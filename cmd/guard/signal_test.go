//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// guardProcess is guard running in a process of its own.
type guardProcess struct {
	cmd         *exec.Cmd
	out, errOut bytes.Buffer
	done        chan struct{}
}

// startGuard starts guard ARGS… in a new process.
func startGuard(t *testing.T, args ...string) *guardProcess {
	t.Helper()
	raw, err := json.Marshal(append([]string{"guard"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	p := &guardProcess{done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^TestGuardHelperProcess$")
	p.cmd.Env = append(os.Environ(), helperEnv+"="+string(raw))
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errOut
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// waitFor polls cond until it holds; it fails t when the process ended or
// a minute passed first.
func (p *guardProcess) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		select {
		case <-p.done:
			t.Fatalf("guard ended before %s: exit %d\nstdout:\n%s\nstderr:\n%s", what, p.cmd.ProcessState.ExitCode(), dbtest.Redact(p.out.String()), dbtest.Redact(p.errOut.String()))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// terminate sends SIGTERM and returns the exit code once the process ended.
func (p *guardProcess) terminate(t *testing.T) int {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatal("guard still running a minute after SIGTERM")
	}
	return p.cmd.ProcessState.ExitCode()
}

// TestSIGTERMDrill terminates a drill mid-run as timeout(1) or Kubernetes
// would: exit 3 saying it was interrupted, and the scratch table, its view
// and the lock keys are gone, as after Ctrl-C.
func TestSIGTERMDrill(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable, `INSERT INTO t_stock (sku, stock) VALUES ('a', 3)`)
	srv := dbtest.Redis(t)
	rdb := srv.Client()
	scratch := func() int {
		var n int
		if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'guard\_drill\_%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	lockKeys := func() []string {
		keys, err := rdb.Keys(context.Background(), "lock:*").Result()
		if err != nil {
			t.Fatal(err)
		}
		return keys
	}
	p := startGuard(t, "drill", "--dsn", db.DSN, "--redis", srv.Addr(), "--table", "t_stock", "--strategies", "lock-cas",
		"--rows", "4", "--stock", "100000000", "--workers", "20", "--conns", "8")
	p.waitFor(t, "scratch table and view", func() bool { return scratch() == 2 })
	p.waitFor(t, "lock key", func() bool { return len(lockKeys()) > 0 })
	code := p.terminate(t)
	if errOut := p.errOut.String(); code != exitRuntime || !strings.Contains(errOut, "drill interrupted") || !strings.Contains(errOut, "dropped") {
		t.Errorf("exit %d, stderr %q: want 3 and the interruption", code, dbtest.Redact(errOut))
	}
	if n := scratch(); n != 0 {
		t.Errorf("%d scratch objects left after SIGTERM", n)
	}
	if keys := lockKeys(); len(keys) != 0 {
		t.Errorf("lock keys left after SIGTERM: %q", keys)
	}
}

// TestSIGTERMMigrate terminates guard migrate up while a file runs: the
// file finishes, nothing after it starts, exit 3, and the version is clean.
func TestSIGTERMMigrate(t *testing.T) {
	db := dbtest.MySQL(t)
	files := map[string]string{"000001_log.up.sql": "CREATE TABLE t_log (version INT NOT NULL);"}
	for v := 2; v <= 4; v++ {
		files[fmt.Sprintf("%06d_slow.up.sql", v)] = fmt.Sprintf("DO SLEEP(0.5);\nINSERT INTO t_log VALUES (%d);", v)
	}
	dir := writeMigrations(t, files)
	p := startGuard(t, "migrate", "up", "--dsn", db.DSN, "--dir", dir)
	// golang-migrate records version 2 as dirty while its file runs.
	p.waitFor(t, "file 2 running", func() bool {
		var v int
		var dirty bool
		err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&v, &dirty)
		return err == nil && v == 2 && dirty
	})
	code := p.terminate(t)
	if errOut := p.errOut.String(); code != exitRuntime || !strings.Contains(errOut, "stopped after") {
		t.Errorf("exit %d, stderr %q: want 3 and where it stopped", code, dbtest.Redact(errOut))
	}
	if state := stateOf(t, db); state != "2 false" {
		t.Errorf("state %s after SIGTERM: want 2, clean (the file that ran finished, no other started)", state)
	}
	var rows int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM t_log").Scan(&rows); err != nil || rows != 1 {
		t.Errorf("t_log holds %d rows (%v), want file 2's one", rows, err)
	}
}

// TestSIGTERMAudit terminates an audit stuck behind a table lock: it exits
// at once with 3, and leaves no statement of its own running on the server.
func TestSIGTERMAudit(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, "CREATE TABLE t_stock (id INT PRIMARY KEY, stock INT NOT NULL)", "INSERT INTO t_stock VALUES (1, -1)")
	// A write lock held by another session holds up the audit's row scan.
	conn, err := db.SQL.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var locker int64
	if err := conn.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&locker); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "LOCK TABLES t_stock WRITE"); err != nil {
		t.Fatal(err)
	}
	// waiting counts the statements on t_stock of sessions other than this
	// test's (the locker's may still show LOCK TABLES a moment after it ran).
	waiting := func() int {
		var n int
		if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM information_schema.PROCESSLIST
			WHERE DB = DATABASE() AND INFO LIKE '%t_stock%' AND ID NOT IN (CONNECTION_ID(), ?)`, locker).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	p := startGuard(t, "audit", "--dsn", db.DSN)
	p.waitFor(t, "the audit's scan waiting on the lock", func() bool { return waiting() > 0 })
	start := time.Now()
	code := p.terminate(t)
	if took := time.Since(start); code != exitRuntime || took > 5*time.Second {
		t.Errorf("exit %d after %s, stderr %q: want 3 at once", code, took, dbtest.Redact(p.errOut.String()))
	}
	if _, err := conn.ExecContext(context.Background(), "UNLOCK TABLES"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for waiting() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := waiting(); n > 0 {
		t.Errorf("%d statements of the audit still on the server after SIGTERM", n)
	}
}
