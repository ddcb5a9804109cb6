package main

import (
	"path/filepath"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestMigrateRefusesAMissingName: a down file dropping a CHECK constraint
// the table has under another name is an input error (exit 2) before
// anything runs, naming the file, the constraint and the table; the
// version stays clean.
func TestMigrateRefusesAMissingName(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql":   "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL, CONSTRAINT chk_qty CHECK (qty >= 0));",
		"000001_create.down.sql": "DROP TABLE t_stock;",
		"000002_note.up.sql":     "ALTER TABLE t_stock ADD COLUMN note VARCHAR(8) NULL;",
		"000002_note.down.sql":   "ALTER TABLE t_stock DROP COLUMN note;\nALTER TABLE t_stock DROP CONSTRAINT chk_qty;",
	})
	flags := []string{"--dsn", db.DSN, "--dir", dir}
	guardMigrate(t, db.Password, append([]string{"up"}, flags...)...).expect(t, "up", exitClean, nil, nil)
	db.Exec(t, "ALTER TABLE t_stock DROP CONSTRAINT chk_qty, ADD CONSTRAINT _chk_qty CHECK (qty >= 0)")
	guardMigrate(t, db.Password, append([]string{"down"}, append(flags, "1")...)...).expect(t, "down 1", exitInput, nil,
		[]string{filepath.Join(dir, "000002_note.down.sql") + ":2:1: DROP CONSTRAINT chk_qty: table t_stock has no constraint named chk_qty (it has: CHECK _chk_qty, index PRIMARY)"})
	if got := stateOf(t, db); got != "2 false" {
		t.Errorf("state after the refusal: %s, want 2 false", got)
	}
}
