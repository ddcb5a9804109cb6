package migrator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

func TestFailureMidwayLeavesDirtyThenForceRecovers(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql":   "CREATE TABLE t_account (id INT PRIMARY KEY, balance INT NOT NULL DEFAULT 0);",
		"000001_create.down.sql": "DROP TABLE t_account;",
		// The second statement names a column that does not exist: the
		// first stays applied, MySQL DDL being non-transactional.
		"000003_two.up.sql":   "ALTER TABLE t_account ADD COLUMN version BIGINT NOT NULL DEFAULT 0;\nALTER TABLE t_account ADD CONSTRAINT chk_balance CHECK (balanse >= 0);",
		"000003_two.down.sql": "ALTER TABLE t_account DROP CONSTRAINT chk_balance;\nALTER TABLE t_account DROP COLUMN version;",
		"000004_more.up.sql":  "ALTER TABLE t_account ADD UNIQUE INDEX uk_id_version (id, version);",
	})
	ctx := context.Background()
	m := open(t, db, dir, Options{SkipPreflight: true})
	_, err := m.Up(ctx)
	var dirty *DirtyError
	if !errors.As(err, &dirty) {
		t.Fatalf("up: err = %v, want a DirtyError", err)
	}
	failed := filepath.Join(dir, "000003_two.up.sql")
	if dirty.Version != 3 || dirty.Force != 1 || dirty.File != failed || !dirty.Up {
		t.Errorf("dirty = %+v, want version 3, force 1, file %s", dirty, failed)
	}
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1054 {
		t.Errorf("cause = %v, want error 1054 (unknown column)", err)
	}
	const hint = "version 3 is dirty: fix the database by hand, then run `guard migrate force 1`"
	if !strings.Contains(err.Error(), hint) {
		t.Errorf("error %q lacks the hint %q", err, hint)
	}
	if got := state(t, db); got != (State{Version: 3, Dirty: true}) {
		t.Errorf("schema_migrations = %v, want 3 dirty", got)
	}

	// Every run now stops at the dirty version, with the same hint.
	for name, run := range map[string]func() (*Result, error){
		"up":     func() (*Result, error) { return m.Up(ctx) },
		"down 1": func() (*Result, error) { return m.Down(ctx, 1) },
		"goto 1": func() (*Result, error) { return m.Goto(ctx, 1) },
	} {
		_, err := run()
		if !errors.As(err, &dirty) || dirty.Version != 3 || dirty.Force != 1 || dirty.Cause != nil {
			t.Errorf("%s on a dirty database: err = %v, want version 3 dirty, force 1", name, err)
		}
		if err != nil && !strings.Contains(err.Error(), hint) {
			t.Errorf("%s: error %q lacks the hint", name, err)
		}
	}

	// Repair by hand (undo the first statement), force, fix the file, up.
	db.Exec(t, "ALTER TABLE t_account DROP COLUMN version")
	st, err := m.Force(ctx, 1)
	if err != nil || st != (State{Version: 1}) {
		t.Fatalf("force 1: %v, %v", st, err)
	}
	fixed := strings.Replace(readFile(t, failed), "balanse", "balance", 1)
	if err := os.WriteFile(failed, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := m.Up(ctx)
	if err != nil {
		t.Fatalf("up after the fix: %v", err)
	}
	if res.To != (State{Version: 4}) || len(res.Applied) != 2 {
		t.Errorf("up after the fix: %+v", res)
	}
	if _, err := m.Force(ctx, 2); !errors.Is(err, ErrNoSuchVersion) {
		t.Errorf("force 2 (no such file): err = %v", err)
	}
}

func TestFailedDownNamesTheVersionItWasUndoing(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql":   "CREATE TABLE t (id INT PRIMARY KEY);",
		"000001_create.down.sql": "DROP TABLE t;",
		"000002_col.up.sql":      "ALTER TABLE t ADD COLUMN n INT;",
		"000002_col.down.sql":    "ALTER TABLE t DROP COLUMN nope;",
	})
	ctx := context.Background()
	m := open(t, db, dir, Options{})
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := m.Down(ctx, 1)
	var dirty *DirtyError
	if !errors.As(err, &dirty) {
		t.Fatalf("down: err = %v, want a DirtyError", err)
	}
	// golang-migrate records the version it was going to (1), dirty.
	want := DirtyError{Version: 1, Force: 2, File: filepath.Join(dir, "000002_col.down.sql")}
	if got := (DirtyError{Version: dirty.Version, Force: dirty.Force, File: dirty.File, Up: dirty.Up}); got != want {
		t.Errorf("dirty = %+v, want %+v", got, want)
	}
	if !strings.Contains(err.Error(), "version 1 is dirty: fix the database by hand, then run `guard migrate force 2`") {
		t.Errorf("error %q lacks the hint", err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConcurrentUpAppliesEachMigrationOnce runs two migrators at once, each
// on its own connection pool as two processes would: every migration logs
// one row, and adds a column that a second run would fail to add.
func TestConcurrentUpAppliesEachMigrationOnce(t *testing.T) {
	db := dbtest.MySQL(t)
	files := map[string]string{
		"000001_log.up.sql": "CREATE TABLE t_log (version INT NOT NULL, at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6));\n" +
			"CREATE TABLE t_item (id INT PRIMARY KEY);\nINSERT INTO t_log (version) VALUES (1);",
	}
	for v := 2; v <= 8; v++ {
		files[fmt.Sprintf("%06d_col.up.sql", v)] = fmt.Sprintf(
			"ALTER TABLE t_item ADD COLUMN c%d INT NOT NULL DEFAULT 0;\nDO SLEEP(0.05);\nINSERT INTO t_log (version) VALUES (%d);", v, v)
	}
	dir := writeDir(t, files)
	a, b := open(t, db, dir, Options{}), open(t, db, dir, Options{})
	var wg sync.WaitGroup
	results := make([]*Result, 2)
	errs := make([]error, 2)
	for i, m := range []*Migrator{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = m.Up(context.Background())
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	if t.Failed() {
		return
	}
	// One run applied everything, the other found nothing to do.
	n := []int{len(results[0].Applied), len(results[1].Applied)}
	if n[0]+n[1] != 8 || (n[0] != 0 && n[1] != 0) {
		t.Errorf("applied %v migrations, want 8 by one run and 0 by the other", n)
	}
	rows, err := db.SQL.Query("SELECT version, COUNT(*) FROM t_log GROUP BY version ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[int]int{}
	for rows.Next() {
		var v, c int
		if err := rows.Scan(&v, &c); err != nil {
			t.Fatal(err)
		}
		got[v] = c
	}
	want := map[int]int{1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("log rows per version (-want +got):\n%s", d)
	}
	if s := state(t, db); s != (State{Version: 8}) {
		t.Errorf("state %v, want 8", s)
	}
}

// cancelOnWrite cancels a context when the first line is logged.
type cancelOnWrite struct {
	cancel context.CancelFunc
	log    strings.Builder
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), "applied ") {
		c.cancel()
	}
	return c.log.Write(p)
}

// TestInterruptStopsBetweenMigrations cancels the run while the first file
// is applied: that file completes, the run stops before the next, clean.
func TestInterruptStopsBetweenMigrations(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"1_a.up.sql": "CREATE TABLE a (id INT PRIMARY KEY);",
		"2_b.up.sql": "CREATE TABLE b (id INT PRIMARY KEY);",
		"3_c.up.sql": "CREATE TABLE c (id INT PRIMARY KEY);",
	})
	ctx, cancel := context.WithCancel(context.Background())
	w := &cancelOnWrite{cancel: cancel}
	m := open(t, db, dir, Options{Log: w})
	res, err := m.Up(ctx)
	n := len(res.Applied)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after 1 of 3 migrations") || n != 1 {
		t.Fatalf("err = %v after %d migrations, want stopped after 1 of 3", err, n)
	}
	if want := (State{Version: n}); res.To != want || state(t, db) != want {
		t.Errorf("applied %v, state %v (database %v), want %v", res.Applied, res.To, state(t, db), want)
	}
}

// TestVerificationFindsAMissingGuard: a procedure drops the CHECK the same
// file adds, out of sight of the statements; verification reports it.
func TestVerificationFindsAMissingGuard(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"1_t.up.sql":   "CREATE TABLE t (id INT PRIMARY KEY, x INT NOT NULL);\nCREATE PROCEDURE undo_guard() ALTER TABLE t DROP CONSTRAINT chk_x;",
		"2_chk.up.sql": "ALTER TABLE t ADD CONSTRAINT chk_x CHECK (x >= 0);\nCALL undo_guard();",
	})
	var log strings.Builder
	res, err := open(t, db, dir, Options{Log: &log}).Up(context.Background())
	var verr *VerifyError
	if !errors.As(err, &verr) || len(verr.Missing) != 1 || verr.Missing[0].Guard.Name != "chk_x" {
		t.Fatalf("err = %v, want chk_x missing", err)
	}
	if res.To != (State{Version: 2}) {
		t.Errorf("state %v: the migrations did run", res.To)
	}
	if !strings.Contains(log.String(), "MISSING: t: CHECK chk_x (`x`>=0) (no CHECK named chk_x)") {
		t.Errorf("log:\n%s", log.String())
	}
}
