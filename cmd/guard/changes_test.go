package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/testtree"
)

// gitIn runs git in dir with a throwaway identity and no user config.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=guard", "-c", "user.email=guard@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// lintCodes runs guard lint --format json and returns code@file of each finding, sorted.
func lintCodes(t *testing.T, args ...string) ([]string, string, int) {
	t.Helper()
	out, stderr, code := guard(t, append([]string{"lint", "--format", "json"}, args...)...)
	var res struct{ Findings []struct{ Code, File string } }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s %s", err, out, stderr)
	}
	got := []string{}
	for _, f := range res.Findings {
		got = append(got, f.Code+"@"+f.File)
	}
	sort.Strings(got)
	return got, stderr, code
}

// TestNewFromRev: in a git repository holding the example shop, only the
// findings of the statements a change touched are reported, and of the
// schema rules only those of the table whose migrations changed.
func TestNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed: --new-from-rev needs it (apt-get install git)")
	}
	dir := t.TempDir()
	testtree.Copy(t, "../../examples/shop", dir)
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "shop")
	t.Chdir(dir)

	if got, _, code := lintCodes(t, "--new-from-rev", "HEAD", "."); len(got) != 0 || code != exitClean {
		t.Errorf("nothing changed: exit %d, findings %v; want none", code, got)
	}

	// Lines inserted above every statement of the DAO, and one of its
	// statements edited; a migration of t_order; a query file not yet added.
	dao := filepath.Join("internal", "dao", "inventory.go")
	b, err := os.ReadFile(dao)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "package dao", "// Package dao reads and writes the shop's stock.\n//\n// It is the only writer.\npackage dao", 1)
	text = strings.Replace(text, "WHERE product_id = ? AND warehouse_id = ?`", "WHERE product_id = ? AND warehouse_id = ? AND reserved = 0`", 1)
	testtree.Write(t, dir, map[string]string{
		dao:                                     text,
		"migrations/000007_order_note.up.sql":   "ALTER TABLE t_order ADD COLUMN note VARCHAR(64) NULL, ALGORITHM=INSTANT, LOCK=NONE;\n",
		"migrations/000007_order_note.down.sql": "ALTER TABLE t_order DROP COLUMN note;\n",
		"sql/cleanup.sql":                       "DELETE FROM t_payment;\n",
	})
	got, stderr, code := lintCodes(t, "--new-from-rev", "HEAD", ".")
	want := []string{
		"GQ001@sql/cleanup.sql",
		"GQ002@internal/dao/inventory.go",
		"GS005@migrations/000003_create_order.up.sql",
	}
	if d := cmp.Diff(want, got); d != "" || code != exitFindings {
		t.Errorf("exit %d; findings (-want +got):\n%s\nstderr: %s", code, d, stderr)
	}

	// From a subfolder, the paths still name the same files.
	t.Chdir(filepath.Join(dir, "internal"))
	if got, _, _ := lintCodes(t, "--new-from-rev", "HEAD", "."); !cmp.Equal(got, []string{"GQ002@dao/inventory.go"}) {
		t.Errorf("from a subfolder: %v", got)
	}
}

// TestNewFromRevInputErrors: outside a work tree, or with a revision git
// does not know, guard lint --new-from-rev is exit 2 with the reason.
func TestNewFromRevInputErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed: --new-from-rev needs it (apt-get install git)")
	}
	outside := t.TempDir()
	testtree.Write(t, outside, map[string]string{"q.sql": "DELETE FROM t;\n"})
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	t.Chdir(outside)
	if _, stderr, code := guard(t, "lint", "--new-from-rev", "HEAD", "."); code != exitInput || !strings.Contains(stderr, "not inside a git work tree") {
		t.Errorf("outside a work tree: exit %d, stderr %q", code, stderr)
	}
	gitIn(t, outside, "init", "-q")
	gitIn(t, outside, "add", ".")
	gitIn(t, outside, "commit", "-q", "-m", "x")
	if _, stderr, code := guard(t, "lint", "--new-from-rev", "v9.9", "."); code != exitInput || !strings.Contains(stderr, `unknown revision "v9.9"`) {
		t.Errorf("unknown revision: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := guard(t, "lint", "--new-from-rev", "HEAD", "--write-baseline", "b.json", "."); code != exitInput || stderr == "" {
		t.Errorf("with --write-baseline: exit %d, stderr %q", code, stderr)
	}
}

// TestNewFromRevSchemaDump: with --schema naming a dump, a table counts as
// changed when a changed line falls in its CREATE TABLE.
func TestNewFromRevSchemaDump(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed: --new-from-rev needs it (apt-get install git)")
	}
	dir := t.TempDir()
	dump := "CREATE TABLE t_stock (\n  id BIGINT PRIMARY KEY,\n  stock INT NOT NULL\n);\n\nCREATE TABLE t_wallet (\n  id BIGINT PRIMARY KEY,\n  balance INT NOT NULL\n);\n"
	testtree.Write(t, dir, map[string]string{"db/schema.sql": dump, "src/q.sql": "SELECT 1;\n"})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "x")
	t.Chdir(dir)
	testtree.Write(t, dir, map[string]string{"db/schema.sql": strings.Replace(dump, "balance INT NOT NULL", "balance INT NOT NULL,\n  owner BIGINT NULL", 1)})
	got, stderr, _ := lintCodes(t, "--schema", "db/schema.sql", "--new-from-rev", "HEAD", "src")
	if len(got) == 0 {
		t.Fatalf("no finding; stderr %s", stderr)
	}
	out, _, _ := guard(t, "lint", "--format", "json", "--schema", "db/schema.sql", "--new-from-rev", "HEAD", "src")
	if strings.Contains(out, "t_stock") || !strings.Contains(out, "t_wallet") {
		t.Errorf("want only t_wallet's findings, got %v:\n%s", got, out)
	}
}
