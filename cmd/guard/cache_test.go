package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/testtree"
)

// The tests' guard lint keeps its cache in a folder of the test binary's
// own, never the user's, removed when the binary ends.
func init() {
	dir, err := os.MkdirTemp("", "guard-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	dbtest.AtExit(func() { os.RemoveAll(dir) })
}

// entries counts the files below dir.
func entries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestLintCacheSameOutput lints the example shop in every format with a
// cache folder, cold and then warm, and with --no-cache: stdout, stderr
// and the exit code are the same each time; --no-cache writes nothing.
func TestLintCacheSameOutput(t *testing.T) {
	t.Chdir("../..")
	cache := filepath.Join(t.TempDir(), "cache")
	for _, format := range []string{"text", "json", "sarif", "github", "gitlab"} {
		want, wantErr, wantCode := guard(t, "lint", "--no-cache", "--format", format, "examples/shop")
		for _, run := range []string{"cold", "warm"} {
			out, errOut, code := guard(t, "lint", "--cache-dir", cache, "--format", format, "examples/shop")
			if out != want || errOut != wantErr || code != wantCode {
				t.Errorf("--format %s, %s cache: exit %d, stderr %q; want the output of --no-cache (exit %d, stderr %q)", format, run, code, errOut, wantCode, wantErr)
			}
		}
	}
	if entries(t, cache) == 0 {
		t.Error("nothing was kept in the cache folder")
	}
	// The flags that change what a run reads or reports: a baseline (which
	// applies to the result read back), a schema named apart, files alone.
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	guard(t, "lint", "--no-cache", "--write-baseline", baseline, "examples/shop/sql")
	for _, args := range [][]string{
		{"--baseline", baseline, "examples/shop"},
		{"--schema", "examples/shop/migrations", "examples/shop/sql", "examples/shop/src"},
		{"examples/shop/sql/admin.sql", "examples/shop/internal/dao/inventory.go"},
	} {
		want, wantErr, wantCode := guard(t, append([]string{"lint", "--no-cache"}, args...)...)
		for _, run := range []string{"cold", "warm"} {
			out, errOut, code := guard(t, append([]string{"lint", "--cache-dir", cache}, args...)...)
			if out != want || errOut != wantErr || code != wantCode {
				t.Errorf("%v, %s cache: exit %d, stderr %q; want the output of --no-cache (exit %d, stderr %q)", args, run, code, errOut, wantCode, wantErr)
			}
		}
	}
	empty := filepath.Join(t.TempDir(), "unused")
	guard(t, "lint", "--no-cache", "--cache-dir", empty, "examples/shop")
	if _, err := os.Stat(empty); err == nil {
		t.Error("--no-cache made the cache folder")
	}
}

// TestLintUnwritableCacheWarns names a file as the cache folder: one
// warning on stderr, and the report and exit code of a run without it.
func TestLintUnwritableCacheWarns(t *testing.T) {
	t.Chdir("../..")
	file := filepath.Join(t.TempDir(), "not-a-folder")
	os.WriteFile(file, []byte("x"), 0o644)
	want, _, wantCode := guard(t, "lint", "--no-cache", "examples/shop")
	out, errOut, code := guard(t, "lint", "--cache-dir", file, "examples/shop")
	if out != want || code != wantCode {
		t.Errorf("unwritable cache: exit %d, want the output and exit %d of --no-cache", code, wantCode)
	}
	if strings.Count(errOut, "guard: warning: cache ") != 1 || !strings.Contains(errOut, file) {
		t.Errorf("stderr %q: want one warning naming %s", errOut, file)
	}
}

// TestCacheClean empties the cache folder of its entries, says how many
// went, and leaves what else the folder holds.
func TestCacheClean(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644)
	guard(t, "lint", "--cache-dir", dir, "examples/shop")
	out, errOut, code := guard(t, "cache", "clean", "--cache-dir", dir)
	if code != exitClean || errOut != "" || !regexp.MustCompile(`^removed [1-9][0-9]* file\(s\), [0-9.]+[KMG]?B, from `).MatchString(out) {
		t.Errorf("guard cache clean: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if n := entries(t, dir); n != 1 {
		t.Errorf("%d files left, want keep.txt alone", n)
	}
	out, _, code = guard(t, "cache", "clean", "--cache-dir", dir)
	if code != exitClean || !strings.HasPrefix(out, "removed 0 file(s), 0B") {
		t.Errorf("cleaning an empty cache: exit %d, %q", code, out)
	}
	if _, errOut, code := guard(t, "cache", "clean", "extra"); code != exitInput || !strings.Contains(errOut, "no arguments") {
		t.Errorf("guard cache clean extra: exit %d, %q", code, errOut)
	}
	if _, errOut, code := guard(t, "lint", "--cache-max-size", "lots", "examples/shop"); code != exitInput || !strings.Contains(errOut, "--cache-max-size") {
		t.Errorf("--cache-max-size lots: exit %d, %q", code, errOut)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"200MB": 200 << 20, "1GB": 1 << 30, "512k": 512 << 10, "4096": 4096, "2 GiB": 2 << 30, "10B": 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-5MB", "MB", "1.5GB", "9999999999999GB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q): no error", in)
		}
	}
}

// TestLintCachePrintsAgain lints a tree large enough to keep each file's
// entry (the example shop and 700 KB of queries) with one cache folder:
// a run prints again what the run of the same key printed, and a run of
// another format, another --fail-on, or after an edit, a deletion or an
// addition prints and exits as --no-cache does.
func TestLintCachePrintsAgain(t *testing.T) {
	dir := t.TempDir()
	testtree.Copy(t, "../../examples/shop", dir)
	var sb strings.Builder
	for i := range 7000 {
		fmt.Fprintf(&sb, "UPDATE t_inventory SET inventory = inventory - %d WHERE product_id = %d;\n", i%7+1, i)
	}
	testtree.Write(t, dir, map[string]string{"sql/bulk.sql": sb.String(), "sql/more.sql": "SELECT stock FROM t_product WHERE id = 1 FOR UPDATE;\n",
		"db/migration/V1__init.sql": "CREATE TABLE t_note (id BIGINT PRIMARY KEY);\n"}) // a note on stderr
	cache := filepath.Join(t.TempDir(), "cache")
	steps := []struct {
		what string
		args []string
		edit func()
	}{
		{"first", []string{"--format", "text"}, nil},
		{"again", []string{"--format", "text"}, nil},
		{"json", []string{"--format", "json"}, nil},
		{"json again", []string{"--format", "json"}, nil},
		{"text, --fail-on never", []string{"--format", "text", "--fail-on", "never"}, nil},
		{"sarif", []string{"--format", "sarif"}, nil},
		{"a file edited", []string{"--format", "text"}, func() {
			testtree.Write(t, dir, map[string]string{"sql/more.sql": "UPDATE t_product SET stock = 3 WHERE id = 1;\n"})
		}},
		{"a file removed", []string{"--format", "text"}, func() { os.Remove(filepath.Join(dir, "sql/more.sql")) }},
		{"json after the removal", []string{"--format", "json"}, nil},
		{"a file added back", []string{"--format", "text"}, func() {
			testtree.Write(t, dir, map[string]string{"sql/more.sql": "SELECT stock FROM t_product WHERE id = 1 FOR UPDATE;\n"})
		}},
	}
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		want, wantErr, wantCode := guard(t, append(append([]string{"lint", "--no-cache"}, s.args...), dir)...)
		got, gotErr, code := guard(t, append(append([]string{"lint", "--cache-dir", cache}, s.args...), dir)...)
		if got != want || gotErr != wantErr || code != wantCode {
			t.Errorf("%s: exit %d, stderr %q, %d bytes; want the output of --no-cache: exit %d, stderr %q, %d bytes", s.what, code, gotErr, len(got), wantCode, wantErr, len(want))
		}
		if !strings.Contains(want, "GQ") || !strings.Contains(wantErr, "Flyway") {
			t.Fatalf("%s: no finding or no note: the test's tree is gone\n%s\n%s", s.what, wantErr, want)
		}
	}
	kinds := map[string]int{}
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if i := strings.LastIndexByte(p, '-'); i > 0 {
				kinds[p[i+1:]]++
			}
		}
		return nil
	})
	if kinds["o"] == 0 || kinds["f"] == 0 {
		t.Errorf("entries by kind %v: want printed reports (o) and files (f)", kinds)
	}
}
