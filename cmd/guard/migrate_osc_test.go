package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// guard plan --osc pt-osc writes the ADD CHECK with the directive, lint
// stays clean of GM003 on it, and guard migrate up runs it through
// pt-online-schema-change: version recorded, CHECK verified.
func TestPlanOSCThenMigrate(t *testing.T) {
	dir := shopCopy(t)
	out, errOut, code := guard(t, "plan", "--dir", dir, "--osc", "pt-osc", "--dry-run")
	if code != exitClean || !strings.Contains(out, "check           COPY       no (pt-osc)") {
		t.Fatalf("plan --dry-run: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, errOut, code := guard(t, "plan", "--dir", dir, "--osc", "pt-osc"); code != exitClean {
		t.Fatalf("plan: exit %d\n%s", code, errOut)
	}
	check := filepath.Join(dir, "000008_guard_t_inventory_inventory_nonneg.up.sql")
	b, err := os.ReadFile(check)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 || lines[1] != "-- guard:osc pt-osc" {
		t.Errorf("%s does not carry the directive on its second line:\n%s", check, b)
	}
	for _, name := range fileNames(t, dir) {
		if strings.Contains(name, "version") || strings.Contains(name, "unique") {
			if b, _ := os.ReadFile(filepath.Join(dir, name)); strings.Contains(string(b), "guard:osc") {
				t.Errorf("%s (no table copy) carries the directive", name)
			}
		}
	}
	out, _, _ = guard(t, "lint", "--no-color", "--fail-on", "never", dir)
	if strings.Contains(out, "GM003") {
		t.Errorf("lint reports GM003 on the handed-off step:\n%s", out)
	}

	db := dbtest.MySQL(t)
	r := guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir)
	r.expect(t, "migrate up", exitClean, []string{
		"running pt-online-schema-change --alter 'ADD CONSTRAINT",
		"pt-online-schema-change: altered",
		"applied " + check + " with pt-online-schema-change",
		"verified: t_inventory: CHECK chk_t_inventory_inventory_nonneg",
	}, nil)
	var dirty bool
	var v int
	if err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&v, &dirty); err != nil || dirty || v < 8 {
		t.Errorf("version %d dirty %v (%v), want 8 or more, clean", v, dirty, err)
	}
}
