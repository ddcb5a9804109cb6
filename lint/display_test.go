package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDisplay shows paths relative to the current directory whatever form
// they were given in; outside it, the shorter of ../ and absolute; and a
// current directory reached through a link does not push its own files out.
func TestDisplay(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(base, "real", "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(deep, "x.sql"), filepath.Join(base, "real", "y.sql")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "real"), filepath.Join(base, "link")); err != nil {
		t.Fatalf("symbolic links: %v", err)
	}
	t.Chdir(filepath.Join(base, "link", "a"))
	tests := []struct{ in, want string }{
		{"b/x.sql", "b/x.sql"},
		{"./b/x.sql", "b/x.sql"},
		{"b/../b/x.sql", "b/x.sql"},
		{filepath.Join(base, "link", "a", "b", "x.sql"), "b/x.sql"},
		{filepath.Join(base, "real", "a", "b", "x.sql"), "b/x.sql"}, // through the resolved location
		{"../a/b/x.sql", "b/x.sql"},
		{"../y.sql", "../y.sql"},
		{filepath.Join(base, "link", "y.sql"), "../y.sql"},
		{".", "."},
		{"/x.sql", "/x.sql"}, // shorter than ../../../…/x.sql
	}
	for _, tt := range tests {
		if got := DisplayPath(tt.in); got != tt.want {
			t.Errorf("DisplayPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
