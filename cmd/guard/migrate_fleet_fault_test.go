//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// writeTargets writes a targets file naming the databases.
func writeTargets(t *testing.T, dbs ...*dbtest.DB) string {
	t.Helper()
	var lines []string
	for _, db := range dbs {
		lines = append(lines, db.DSN)
	}
	path := filepath.Join(t.TempDir(), "targets.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// fleetRow finds the row of target name in a fleet table and returns its
// TO and OUTCOME columns.
func fleetRow(t *testing.T, out, name string) (to, outcome string) {
	t.Helper()
	row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s+(\S+(?: \(dirty\))?)\s+(\S+(?: \(dirty\))?)\s+\d+\s+\S+\s+(.+?)\s*$`)
	m := row.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row for %s in the fleet table:\n%s", name, dbtest.Redact(out))
	}
	return m[2], m[3]
}

// A fleet run stopped by SIGTERM between two migrations: each target is
// "interrupted" at the clean version its running file reached, not
// "failed".
func TestMigrateFleetInterrupted(t *testing.T) {
	a, b := dbtest.MySQL(t), dbtest.MySQL(t)
	files := map[string]string{"000001_log.up.sql": "CREATE TABLE t_log (version INT NOT NULL);"}
	for v := 2; v <= 4; v++ {
		files[fmt.Sprintf("%06d_slow.up.sql", v)] = fmt.Sprintf("DO SLEEP(0.5);\nINSERT INTO t_log VALUES (%d);", v)
	}
	dir := writeMigrations(t, files)
	p := startGuard(t, "migrate", "up", "--targets", writeTargets(t, a, b), "--dir", dir, "--parallel", "2")
	p.waitFor(t, "file 2 running on both", func() bool {
		for _, db := range []*dbtest.DB{a, b} {
			var v int
			var dirty bool
			if err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&v, &dirty); err != nil || v != 2 || !dirty {
				return false
			}
		}
		return true
	})
	code := p.terminate(t)
	out := p.out.String()
	if code != exitRuntime {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitRuntime, dbtest.Redact(out), dbtest.Redact(p.errOut.String()))
	}
	for _, db := range []*dbtest.DB{a, b} {
		to, outcome := fleetRow(t, out, db.Addr+"/"+db.Name)
		if to != "2" || outcome != "interrupted" {
			t.Errorf("%s: TO %q OUTCOME %q, want 2 and interrupted\n%s", db.Name, to, outcome, dbtest.Redact(out))
		}
		if state := stateOf(t, db); state != "2 false" {
			t.Errorf("%s: state %s, want 2 clean", db.Name, state)
		}
	}
	if !strings.Contains(out, "2 targets: 2 interrupted") {
		t.Errorf("summary line:\n%s", dbtest.Redact(out))
	}
}

// A server killed while a fleet target copies a table: the row says dirty
// at the version golang-migrate recorded before the file (TO "2 (dirty)"),
// not the zero of a state that could not be read.
func TestMigrateFleetServerKilled(t *testing.T) {
	killed, other := dbtest.PrivateMySQL(t), dbtest.MySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_big (id INT PRIMARY KEY, qty INT NOT NULL);",
		"000002_check.up.sql":  "ALTER TABLE t_big ADD CONSTRAINT chk_t_big_qty CHECK (qty >= 0), ALGORITHM=COPY;",
	})
	targets := writeTargets(t, killed, other)
	guardMigrate(t, killed.Password, "goto", "1", "--targets", targets, "--dir", dir).expect(t, "goto 1", exitClean, nil, nil)
	killed.Exec(t, "INSERT INTO t_big VALUES (1, 1)")
	for n := 1; n < 1<<19; n *= 2 {
		killed.Exec(t, fmt.Sprintf("INSERT INTO t_big SELECT id + %d, qty FROM t_big", n))
	}
	p := startGuard(t, "migrate", "up", "--targets", targets, "--dir", dir, "--on-error", "continue")
	waitForQuery(t, killed.SQL, "ALTER TABLE t_big")
	killed.Server().Kill()
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatal("guard migrate up still running a minute after the server was killed")
	}
	out := p.out.String()
	if code := p.cmd.ProcessState.ExitCode(); code != exitDirty {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitDirty, dbtest.Redact(out), dbtest.Redact(p.errOut.String()))
	}
	if to, outcome := fleetRow(t, out, killed.Addr+"/"+killed.Name); to != "2 (dirty)" || outcome != "dirty" {
		t.Errorf("killed target: TO %q OUTCOME %q, want 2 (dirty) and dirty\n%s", to, outcome, dbtest.Redact(out))
	}
	if to, outcome := fleetRow(t, out, other.Addr+"/"+other.Name); to != "2" || outcome != "applied" {
		t.Errorf("other target: TO %q OUTCOME %q, want 2 and applied\n%s", to, outcome, dbtest.Redact(out))
	}
	if strings.Contains(out+p.errOut.String(), killed.Password) {
		t.Error("the password appears in the output")
	}
}
