package migrator

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// The environment of TestOSCHelperProcess: the migrations directory and the
// DSN it migrates.
const (
	oscHelperDirEnv = "GUARD_OSC_HELPER_DIR"
	oscHelperDSNEnv = "GUARD_OSC_HELPER_DSN"
)

// TestOSCHelperProcess is guard migrate up in a process of its own, for
// TestOSCGuardKilled to kill with SIGKILL; without oscHelperDirEnv it does
// nothing.
func TestOSCHelperProcess(t *testing.T) {
	dir := os.Getenv(oscHelperDirEnv)
	if dir == "" {
		return
	}
	cfg, err := mysql.ParseDSN(os.Getenv(oscHelperDSNEnv))
	if err != nil {
		t.Fatal("parse the dsn")
	}
	m, err := Open(context.Background(), cfg, Options{Dir: dir, Log: os.Stdout})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Up(context.Background())
	fmt.Println("up:", err)
}

// ptOSCProcesses are the pids of the pt-online-schema-change processes
// working on database name, zombies left out.
func ptOSCProcesses(t *testing.T, name string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(PTOSCBinary)) || !bytes.Contains(cmdline, []byte("D="+name+",")) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// secretsUnder lists what under dir could hold the password: a guard-osc-*
// directory, a client.cnf, or any file whose bytes hold it.
func secretsUnder(t *testing.T, dir, password string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case strings.HasPrefix(d.Name(), "guard-osc-"), d.Name() == "client.cnf":
			found = append(found, rel)
		case d.Type().IsRegular():
			if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(password)) {
				found = append(found, rel+" (holds the password)")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// Guard killed with SIGKILL while pt-online-schema-change alters a table,
// at several moments of the tool's run: no file holding the password is
// left under TMPDIR, the tool stops (it dies with guard), the table keeps
// every row and its definition, and the next run drops what the tool left
// and says so. Where the tool had made something, nothing of the step was
// applied: the next run records the version clean at the one before and
// applies the step; where it had made nothing yet, the dirty version is
// reported as any other, with what was found.
func TestOSCGuardKilled(t *testing.T) {
	needPTOSC(t)
	const rows = 300000
	for _, moment := range []struct {
		name    string
		reached func(db *dbtest.DB) bool
	}{
		{"tool started", func(db *dbtest.DB) bool { return len(ptOSCProcesses(t, db.Name)) > 0 }},
		{"triggers in place", func(db *dbtest.DB) bool {
			var n int
			return db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'pt_osc_%'").Scan(&n) == nil && n == 3
		}},
		{"rows copied", func(db *dbtest.DB) bool {
			var n int
			return db.SQL.QueryRow("SELECT COUNT(*) FROM _t_stock_new").Scan(&n) == nil && n > 0
		}},
	} {
		t.Run(moment.name, func(t *testing.T) {
			db := dbtest.MySQL(t)
			dir := writeDir(t, oscFiles(stockTable))
			if _, err := open(t, db, dir, Options{}).Goto(context.Background(), 1); err != nil {
				t.Fatal(dbtest.Redact(err.Error()))
			}
			db.Exec(t, fmt.Sprintf("INSERT INTO t_stock SELECT seq, seq %% 7 FROM seq_1_to_%d", rows))
			before := tableState(t, db)

			tmp := t.TempDir()
			helper := exec.Command(os.Args[0], "-test.run=^TestOSCHelperProcess$", "-test.timeout=5m")
			helper.Env = append(os.Environ(), oscHelperDirEnv+"="+dir, oscHelperDSNEnv+"="+db.DSN, "TMPDIR="+tmp)
			var out bytes.Buffer
			helper.Stdout, helper.Stderr = &out, &out
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- helper.Wait() }()
			deadline := time.Now().Add(2 * time.Minute)
			for !moment.reached(db) {
				select {
				case err := <-exited:
					t.Fatalf("guard ended before %s (%v):\n%s", moment.name, err, dbtest.Redact(out.String()))
				default:
				}
				if time.Now().After(deadline) {
					helper.Process.Kill()
					t.Fatalf("%s not reached in 2 minutes:\n%s", moment.name, dbtest.Redact(out.String()))
				}
				time.Sleep(5 * time.Millisecond)
			}
			if moment.name != "tool started" {
				// Every connection of the tool takes the lock that tells
				// the next run it is alive.
				var holder sql.NullInt64
				if err := db.SQL.QueryRow("SELECT IS_USED_LOCK(?)", oscLockName(db.Name, "t_stock")).Scan(&holder); err != nil || !holder.Valid {
					t.Errorf("the lock of the tool's run is not held (%v)", err)
				}
			}
			if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-exited
			t.Logf("guard killed once %s:\n%s", moment.name, dbtest.Redact(out.String()))

			if found := secretsUnder(t, tmp, db.Password); len(found) > 0 {
				t.Errorf("left under TMPDIR after guard was killed: %s", strings.Join(found, ", "))
			}
			for wait := time.Now().Add(30 * time.Second); len(ptOSCProcesses(t, db.Name)) > 0; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(wait) {
					pids := ptOSCProcesses(t, db.Name)
					for _, pid := range pids {
						syscall.Kill(pid, syscall.SIGKILL)
					}
					t.Fatalf("%s still runs 30s after guard was killed (pids %v)", PTOSCBinary, pids)
				}
			}
			// The server ends the tool's connections, and releases the lock
			// of its run, once the statement it was running ends.
			for wait := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				var holder sql.NullInt64
				if err := db.SQL.QueryRow("SELECT IS_USED_LOCK(?)", oscLockName(db.Name, "t_stock")).Scan(&holder); err != nil {
					t.Fatal(err)
				}
				if !holder.Valid {
					break
				}
				if time.Now().After(wait) {
					t.Fatalf("the lock of the tool's run is still held by connection %d 30s after the tool ended", holder.Int64)
				}
			}
			if st := state(t, db); st != (State{Version: 2, Dirty: true}) {
				t.Errorf("version %s after the kill, want 2 dirty", st)
			}
			var name, create string
			if err := db.SQL.QueryRow("SHOW CREATE TABLE t_stock").Scan(&name, &create); err != nil {
				t.Fatal(err)
			}
			var n, sum int64
			if err := db.SQL.QueryRow("SELECT COUNT(*), SUM(qty) FROM t_stock").Scan(&n, &sum); err != nil {
				t.Fatal(err)
			}
			if want := strings.SplitN(before, "\nrows", 2)[0]; create != want || n != rows || sum != wantSum(rows) {
				t.Errorf("t_stock after the kill: %d rows summing %d, definition\n%s\nwant %d rows summing %d, definition\n%s", n, sum, create, rows, wantSum(rows), want)
			}
			left, err := oscLeftovers(context.Background(), db.SQL, db.Name, "t_stock")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s left: %v", PTOSCBinary, left)

			var log strings.Builder
			m := open(t, db, dir, Options{Log: &log})
			res, err := m.Up(context.Background())
			t.Logf("the next up:\n%s", dbtest.Redact(log.String()))
			if len(left) == 0 {
				// Nothing tells whether the tool altered the table: the
				// dirty version is reported, and what was looked at.
				var dirty *DirtyError
				if !errors.As(err, &dirty) || dirty.Version != 2 || dirty.Force != 1 {
					t.Fatalf("next up: %v, want version 2 dirty, force 1\n%s", err, dbtest.Redact(log.String()))
				}
				if want := PTOSCBinary + " left nothing on t_stock"; !strings.Contains(log.String(), want) {
					t.Errorf("next up's log lacks %q:\n%s", want, dbtest.Redact(log.String()))
				}
				return
			}
			if err != nil {
				t.Fatalf("next up: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
			}
			for _, want := range []string{
				"guard migrate stopped while " + PTOSCBinary + " altered t_stock",
				"t_stock is not altered",
				"dropped what it left: ",
				"version 2 was dirty: recorded clean at 1",
				"applied " + filepath.Join(dir, "000002_check.up.sql") + " with " + PTOSCBinary,
			} {
				if !strings.Contains(log.String(), want) {
					t.Errorf("next up's log lacks %q:\n%s", want, dbtest.Redact(log.String()))
				}
			}
			if res.To != (State{Version: 2}) || state(t, db) != (State{Version: 2}) {
				t.Errorf("after the next up: %s (database %s), want 2 clean", res.To, state(t, db))
			}
			after, err := oscLeftovers(context.Background(), db.SQL, db.Name, "t_stock")
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]string(nil), after); d != "" {
				t.Errorf("left after the next up (-want +got):\n%s", d)
			}
			if err := db.SQL.QueryRow("SELECT COUNT(*), SUM(qty) FROM t_stock").Scan(&n, &sum); err != nil || n != rows || sum != wantSum(rows) {
				t.Errorf("after the next up: %d rows summing %d (%v), want %d summing %d", n, sum, err, rows, wantSum(rows))
			}
		})
	}
}

// wantSum is the sum of seq % 7 for seq from 1 to n.
func wantSum(n int64) int64 {
	var s int64
	for i := int64(1); i <= n; i++ {
		s += i % 7
	}
	return s
}
