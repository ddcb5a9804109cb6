package lint

import (
	"os"
	"path/filepath"
	"strings"
)

// DisplayPath returns p as findings name it: relative to the current
// directory, with / separators, whether it was given absolute, relative or
// ./-prefixed. A path outside the current directory climbs out with ../,
// unless its absolute form is shorter (the go command's rule: ../sql/schema.sql,
// but /tmp/schema.sql rather than ../../../../tmp/schema.sql); a path on
// another volume (Windows) stays absolute. Where the current directory was
// reached through a symbolic link, a path given through the resolved location
// still comes out below it.
// The result depends on where the file is, never on how it was named.
func DisplayPath(p string) string { return CurrentDir().Path(p) }

// Dir is a current directory as DisplayPath reads it, for a caller that
// names many paths from the same one: the directory is asked of the system
// once.
type Dir struct {
	wd  string
	err error
}

// CurrentDir returns the current directory.
func CurrentDir() Dir {
	wd, err := os.Getwd()
	return Dir{wd, err}
}

// Path is DisplayPath of p from d.
func (d Dir) Path(p string) string {
	wd, err := d.wd, d.err
	if err != nil {
		return filepath.ToSlash(filepath.Clean(p))
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(abs))
	}
	if climbsOut(rel) {
		realWd, err1 := filepath.EvalSymlinks(wd)
		realP, err2 := filepath.EvalSymlinks(abs)
		if err1 == nil && err2 == nil {
			if r, err := filepath.Rel(realWd, realP); err == nil && !climbsOut(r) {
				rel = r
			}
		}
	}
	if climbsOut(rel) && len(filepath.Clean(abs)) < len(rel) {
		rel = filepath.Clean(abs)
	}
	return filepath.ToSlash(rel)
}

// climbsOut reports whether the relative path rel leaves its base folder.
func climbsOut(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
