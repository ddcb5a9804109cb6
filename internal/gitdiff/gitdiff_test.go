package gitdiff

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/driver"
)

// repo is a throwaway git repository.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed: --new-from-rev needs it (apt-get install git)")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	r := &repo{t, dir}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=guard", "-c", "user.email=guard@example.com"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(name, text string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func lines(n int, prefix string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(prefix + strings.Repeat("x", i) + "\n")
	}
	return b.String()
}

func TestChanged(t *testing.T) {
	r := newRepo(t)
	r.write("edit.sql", lines(10, "line "))
	r.write("trim.sql", lines(10, "line "))
	r.write("old/moved.sql", lines(20, "moved "))
	r.write("old/renamed.sql", lines(20, "renamed "))
	r.write("gone.sql", "a\n")
	r.write(".gitignore", "*.log\n")
	r.git("add", ".")
	r.git("commit", "-q", "-m", "base")
	base := r.git("rev-parse", "HEAD")

	// Line 3 edited, two lines added after line 7; trim.sql loses lines
	// 4-5; moved.sql is renamed and edited at line 12, renamed.sql only
	// renamed; gone.sql deleted; new.sql committed later, fresh.sql and
	// a b.sql (a space in the name) untracked, debug.log ignored.
	edit := strings.Split(lines(10, "line "), "\n")
	edit[2] = "changed"
	edit = append(edit[:7], append([]string{"added 1", "added 2"}, edit[7:]...)...)
	r.write("edit.sql", strings.Join(edit, "\n"))
	trim := strings.Split(lines(10, "line "), "\n")
	r.write("trim.sql", strings.Join(append(trim[:3], trim[5:]...), "\n"))
	if err := os.Mkdir(filepath.Join(r.dir, "new"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("mv", "old/moved.sql", "new/moved.sql")
	moved := strings.Split(lines(20, "moved "), "\n")
	moved[11] = "edited"
	r.write("new/moved.sql", strings.Join(moved, "\n"))
	r.git("mv", "old/renamed.sql", "new/renamed.sql")
	r.git("rm", "-q", "gone.sql")
	r.write("new.sql", "one\ntwo\n")
	r.git("add", "new.sql")
	r.git("commit", "-q", "-m", "later")
	r.write("fresh.sql", "x\n")
	r.write("a b.sql", "x\n")
	r.write("debug.log", "x\n")
	r.git("add", "edit.sql") // staged or not makes no difference

	got, err := Changed(context.Background(), filepath.Join(r.dir, "new"), base)
	if err != nil {
		t.Fatal(err)
	}
	at := func(p string) string { return filepath.Join(r.dir, p) }
	want := map[string][]driver.LineRange{
		at("edit.sql"):      {{From: 3, To: 3}, {From: 8, To: 9}},
		at("trim.sql"):      {{From: 3, To: 4}},
		at("new/moved.sql"): {{From: 12, To: 12}},
		at("new.sql"):       {{From: 1, To: 2}},
		at("fresh.sql"):     {driver.WholeFile},
		at("a b.sql"):       {driver.WholeFile},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Changed (-want +got):\n%s", d)
	}
}

func TestChangedErrors(t *testing.T) {
	r := newRepo(t)
	r.write("a.sql", "x\n")
	r.git("add", ".")
	r.git("commit", "-q", "-m", "base")
	for _, rev := range []string{"nosuch", "HEAD~5", "--output=/tmp/x", ""} {
		if _, err := Changed(context.Background(), r.dir, rev); !errors.Is(err, ErrUnknownRevision) {
			t.Errorf("rev %q: error %v, want ErrUnknownRevision", rev, err)
		}
	}
	// A shallow clone holds one commit: the error says why the parent is
	// unknown and how to fetch it.
	r.write("a.sql", "y\n")
	r.git("commit", "-q", "-am", "second")
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+r.dir, shallow).CombinedOutput(); err != nil {
		t.Fatalf("git clone --depth 1: %v\n%s", err, out)
	}
	for _, call := range []func() error{
		func() error { _, err := Changed(context.Background(), shallow, "HEAD~1"); return err },
		func() error { _, err := FilesAt(context.Background(), shallow, "HEAD~1"); return err },
	} {
		if err := call(); !errors.Is(err, ErrUnknownRevision) || !strings.Contains(err.Error(), "the clone is shallow") || !strings.Contains(err.Error(), "git fetch --unshallow") {
			t.Errorf("shallow clone: error %v, want ErrUnknownRevision saying the clone is shallow and how to deepen it", err)
		}
	}
	if err := func() error { _, err := Changed(context.Background(), r.dir, "nosuch"); return err }(); strings.Contains(err.Error(), "shallow") {
		t.Errorf("full clone: %v speaks of a shallow clone", err)
	}
	outside := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	if _, err := Changed(context.Background(), outside, "HEAD"); !errors.Is(err, ErrNotWorkTree) {
		t.Errorf("outside a work tree: error %v, want ErrNotWorkTree", err)
	}
}

func TestFilesAt(t *testing.T) {
	r := newRepo(t)
	r.write("migrations/000001_a.up.sql", "x\n")
	r.write("migrations/sub/000009_nested.up.sql", "x\n")
	r.write("top.sql", "x\n")
	r.git("add", ".")
	r.git("commit", "-q", "-m", "base")
	base := r.git("rev-parse", "HEAD")
	r.write("migrations/000002_b.up.sql", "x\n")
	r.write("later/000001_c.up.sql", "x\n")
	r.git("add", ".")
	r.git("commit", "-q", "-m", "later")

	at := func(p string) string { return filepath.Join(r.dir, p) }
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{at("migrations"), []string{at("migrations/000001_a.up.sql")}}, // its own files, not a subfolder's
		{at("."), []string{at("top.sql")}},
		{at("later"), nil}, // not there yet
	} {
		got, err := FilesAt(context.Background(), c.dir, base)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("FilesAt(%s) (-want +got):\n%s", c.dir, d)
		}
	}
	if _, err := FilesAt(context.Background(), at("migrations"), "nosuch"); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("unknown revision: error %v", err)
	}
}
