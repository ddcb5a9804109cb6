package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// tableExists reports whether the test database has table name.
func tableExists(t *testing.T, db *dbtest.DB, name string) bool {
	t.Helper()
	var n int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", db.Name, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// TestMisnamedMigrationRefusedEverywhere: an editor backup next to the
// migrations is refused by migrate, lint and plan alike, naming the file,
// before anything runs. golang-migrate's own file name parser would apply
// 000002_old.up.sql~ (here a DROP TABLE) while lint ignored it.
func TestMisnamedMigrationRefusedEverywhere(t *testing.T) {
	db := dbtest.MySQL(t)
	for _, stray := range []string{"000002_old.up.sql~", "000002_old.up.sql.orig", "000002_old.UP.SQL", "000002.up.sql"} {
		t.Run(stray, func(t *testing.T) {
			db.Exec(t, "DROP TABLE IF EXISTS schema_migrations", "DROP TABLE IF EXISTS t_keep")
			dir := writeMigrations(t, map[string]string{
				"000001_create.up.sql": "CREATE TABLE t_keep (id INT PRIMARY KEY, qty INT NOT NULL);",
				stray:                  "DROP TABLE t_keep;",
			})
			named := filepath.Join(dir, stray)
			for _, sub := range [][]string{{"up"}, {"status"}, {"goto", "1"}} {
				args := append(append([]string{}, sub...), "--dsn", db.DSN, "--dir", dir)
				guardMigrate(t, db.Password, args...).expect(t, "migrate "+sub[0], exitInput, nil, []string{named})
			}
			if tableExists(t, db, "t_keep") || tableExists(t, db, "schema_migrations") {
				t.Errorf("migrate ran something despite %s", stray)
			}
			_, errOut, code := guard(t, "lint", dir)
			if code != exitInput || !strings.Contains(errOut, named) {
				t.Errorf("lint: exit %d, stderr %q; want %d naming %s", code, errOut, exitInput, named)
			}
			_, errOut, code = guard(t, "plan", "--dir", dir)
			if code != exitInput || !strings.Contains(errOut, named) {
				t.Errorf("plan: exit %d, stderr %q; want %d naming %s", code, errOut, exitInput, named)
			}
		})
	}

	// The safe twin: backups outside the migration naming (hidden swap
	// files, notes) are left alone by all three.
	db.Exec(t, "DROP TABLE IF EXISTS schema_migrations", "DROP TABLE IF EXISTS t_keep")
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql":      "CREATE TABLE t_keep (id INT PRIMARY KEY, qty INT NOT NULL);",
		".000001_create.up.sql.swp": "DROP TABLE t_keep;",
		"README.md":                 "notes",
	})
	guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "migrate up", exitClean, []string{"version none -> 1"}, nil)
	if _, errOut, code := guard(t, "lint", "--fail-on", "never", dir); code != exitClean {
		t.Errorf("lint: exit %d: %s", code, errOut)
	}
	// Nor is a script named like a migration in a folder without any.
	tools := writeMigrations(t, map[string]string{"001_backup.down.sh": "mysqldump shop", "report.sql": "SELECT 1;"})
	if _, errOut, code := guard(t, "lint", "--fail-on", "never", tools); code != exitClean {
		t.Errorf("lint of a folder without migrations: exit %d: %s", code, errOut)
	}
}

// TestMigrateEmptyFileRefused: a pending empty or blank file would fail on
// the server (1065 Query was empty) and leave its version dirty; it is
// refused before anything runs, naming the file. A file holding only a
// comment, golang-migrate's way of a migration that does nothing, runs.
func TestMigrateEmptyFileRefused(t *testing.T) {
	db := dbtest.MySQL(t)
	for name, body := range map[string]string{"empty": "", "blank": "\n  \r\n", "bom": "\ufeff\r\n"} {
		t.Run(name, func(t *testing.T) {
			db.Exec(t, "DROP TABLE IF EXISTS schema_migrations", "DROP TABLE IF EXISTS t_one")
			dir := writeMigrations(t, map[string]string{
				"000001_create.up.sql": "CREATE TABLE t_one (id INT PRIMARY KEY);",
				"000002_later.up.sql":  body,
			})
			guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "up", exitInput, nil,
				[]string{filepath.Join(dir, "000002_later.up.sql") + ": no SQL statement", "nothing was applied"})
			if tableExists(t, db, "t_one") {
				t.Error("the run applied 000001 before refusing")
			}
			// What runs before the empty file is still up to the user.
			guardMigrate(t, db.Password, "goto", "1", "--dsn", db.DSN, "--dir", dir).expect(t, "goto 1", exitClean, nil, nil)
			if got := stateOf(t, db); got != "1 false" {
				t.Errorf("state after goto 1: %s", got)
			}
		})
	}

	db.Exec(t, "DROP TABLE IF EXISTS schema_migrations", "DROP TABLE IF EXISTS t_one")
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_one (id INT PRIMARY KEY);",
		"000002_later.up.sql":  "-- nothing to do yet\n/* later */\n",
	})
	guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "comment only", exitClean, []string{"version none -> 2"}, nil)
}

// TestMigrateBOMAndCRLF: a file saved by a Windows editor (byte order mark,
// CRLF line ends) is applied: the mark is not sent to the server. lint reads
// the same file as the table it creates.
func TestMigrateBOMAndCRLF(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql": "\ufeffCREATE TABLE t_win (\r\n  id INT PRIMARY KEY,\r\n  stock INT NOT NULL\r\n);\r\n",
		"000002_check.up.sql":  "\ufeffALTER TABLE t_win ADD CONSTRAINT chk_t_win_stock_nonneg CHECK (stock >= 0), ALGORITHM=COPY;\r\n",
	})
	guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "up", exitClean,
		[]string{"verified: t_win: CHECK chk_t_win_stock_nonneg", "version none -> 2"}, nil)
	if got := stateOf(t, db); got != "2 false" {
		t.Errorf("state: %s", got)
	}
	out, errOut, code := guard(t, "lint", "--fail-on", "never", dir)
	if code != exitClean || strings.Contains(out, "GQ009") || !strings.Contains(out, "1 table)") {
		t.Errorf("lint of the BOM files: exit %d, want the table replayed and no GQ009:\n%s%s", code, out, errOut)
	}
}

// TestMigratePreflightsEachStep: a pending file inserts a negative row
// before a pending ADD CHECK. The run's preflight cannot see that row; the
// check of the step right before it runs does, and the run stops there at a
// clean version: the earlier steps applied, nothing of the refused one.
func TestMigratePreflightsEachStep(t *testing.T) {
	db := dbtest.MySQL(t)
	files := map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL);",
		"000002_seed.up.sql":   "INSERT INTO t_stock VALUES (1, 5), (2, -1);",
		"000003_check.up.sql":  "ALTER TABLE t_stock ADD CONSTRAINT chk_t_stock_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY;",
		"000004_more.up.sql":   "ALTER TABLE t_stock ADD COLUMN note VARCHAR(10) NULL, ALGORITHM=INSTANT;",
	}
	dir := writeMigrations(t, files)
	check := filepath.Join(dir, "000003_check.up.sql")
	guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "up", exitRuntime,
		[]string{"preflight skipped: " + check + ":1:1: t_stock: CHECK chk_t_stock_qty_nonneg (`qty`>=0): not checked: " +
			"rows are changed by " + filepath.Join(dir, "000002_seed.up.sql") + ":1 before it in this run: the result cannot be predicted" +
			"; checked again right before its migration runs",
			"applied " + filepath.Join(dir, "000002_seed.up.sql"),
			"preflight FAIL: " + check + ":1:1: t_stock: CHECK chk_t_stock_qty_nonneg (`qty`>=0): 1 row breaks it",
			"    id=2 qty=-1\n"},
		[]string{"preflight before " + check, "it was not run, and the version is clean"})
	if got := stateOf(t, db); got != "2 false" {
		t.Errorf("state after the refusal: %s, want 2 false", got)
	}
	var n int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND CONSTRAINT_NAME = 'chk_t_stock_qty_nonneg'", db.Name).Scan(&n); err != nil || n != 0 {
		t.Errorf("the refused CHECK is there: %d (%v)", n, err)
	}

	// Fixed by hand, the run goes on from the clean version; the safe
	// twin: the re-checked step now passes.
	db.Exec(t, "UPDATE t_stock SET qty = 0 WHERE qty < 0")
	guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir).expect(t, "up after the fix", exitClean,
		[]string{"preflight ok: " + check, "version 2 -> 4"}, nil)
}

// TestMigrateEscapesControlBytes: file names and SQL quoted in migrate's
// output reach the terminal escaped, as lint prints them.
func TestMigrateEscapesControlBytes(t *testing.T) {
	db := dbtest.MySQL(t)
	name := "000001_\x1b[31mred.up.sql"
	dir := writeMigrations(t, map[string]string{
		name:                "CREATE TABLE t_esc (id INT PRIMARY KEY);",
		"000002_bad.up.sql": "ALTER TABLE t_esc ADD COLUMN a INT NOT NUL DEFAULT '\x1b]0;owned\x07';",
	})
	r0 := guardMigrate(t, db.Password, "goto", "1", "--dsn", db.DSN, "--dir", dir)
	r0.expect(t, "goto 1", exitClean, []string{"applied " + filepath.Join(dir, `000001_\x1b[31mred.up.sql`)}, nil)
	r := guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir)
	r.expect(t, "up", exitInput, nil, []string{filepath.Join(dir, "000002_bad.up.sql") + ":1:"})
	r2 := guardMigrate(t, db.Password, "status", "--dsn", db.DSN, "--dir", dir)
	for what, s := range map[string]string{"goto stdout": r0.out, "up stderr": r.errOut, "status stdout": r2.out} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("%s holds raw control bytes: %q", what, s)
		}
	}
	if !strings.Contains(r2.out, `\x1b[31mred`) {
		t.Errorf("status does not show the escaped name: %q", r2.out)
	}
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}
