package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/testtree"
)

// TestLintWarnsOfEmptySchema warns on stderr when --schema replays no table,
// which would otherwise leave every schema rule silent without a word, and
// stays quiet when it does.
func TestLintWarnsOfEmptySchema(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"grants.sql": "CREATE DATABASE shop;\nGRANT ALL ON shop.* TO 'shop'@'%';\n",
		"tables.sql": "CREATE TABLE t_stock (id BIGINT PRIMARY KEY, quantity INT NOT NULL);\n",
		"src/q.sql":  "SELECT 1;\n",
	}
	testtree.Write(t, dir, files)
	src := filepath.Join(dir, "src")
	grants := filepath.Join(dir, "grants.sql")
	_, stderr, code := guard(t, "lint", "--fail-on", "never", "--schema", grants, src)
	if code != exitClean || !strings.Contains(stderr, "guard: warning: --schema "+grants+" holds no table") {
		t.Errorf("schema without a table: exit %d, stderr %q; want 0 and the warning", code, stderr)
	}
	_, stderr, code = guard(t, "lint", "--fail-on", "never", "--schema", filepath.Join(dir, "tables.sql"), src)
	if code != exitClean || stderr != "" {
		t.Errorf("schema with a table: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
}
