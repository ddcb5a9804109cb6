package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// inputs is what a walk over the lint paths found.
type inputs struct {
	// migrationDirs holds the folders with golang-migrate files, sorted.
	migrationDirs []string
	// sources holds the query source files (.sql, .go, .java, .xml), sorted.
	sources []string
}

// sourceExt lists the extensions of query source files.
var sourceExt = map[string]bool{".sql": true, ".go": true, ".java": true, ".xml": true}

// walk collects the files below paths, leaving out the excluded ones.
// A path that does not exist is an error when required.
func walk(paths []string, exclude []string, required bool) (*inputs, error) {
	seenDir := map[string]bool{}
	seenFile := map[string]bool{}
	in := &inputs{}
	addFile := func(p, rel string) {
		clean := filepath.Clean(p)
		if seenFile[clean] || excluded(rel, exclude) {
			return
		}
		seenFile[clean] = true
		base := filepath.Base(clean)
		if _, _, ok := schema.IsMigrationName(base); ok {
			dir := filepath.Dir(clean)
			if !seenDir[dir] {
				seenDir[dir] = true
				in.migrationDirs = append(in.migrationDirs, dir)
			}
			return
		}
		if sourceExt[strings.ToLower(filepath.Ext(base))] {
			in.sources = append(in.sources, clean)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			if !required && os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("%s: no such file or directory", root)
		}
		if !info.IsDir() {
			addFile(root, "")
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("walk %s: %w", p, err)
			}
			if d.IsDir() {
				name := d.Name()
				if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || excluded(relTo(root, p), exclude)) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				addFile(p, relTo(root, p))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(in.migrationDirs)
	sort.Strings(in.sources)
	// A .sql file that lies in a migrations folder but is not an up/down file
	// is still a query source; down files are skipped entirely.
	return in, nil
}

// relTo returns p relative to root: exclude globs are matched below the
// folder being walked, so a path named on the command line is never excluded.
func relTo(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return rel
}

// excluded reports whether p matches one of the exclude globs. Globs use /
// separators; "**" matches any number of path elements.
func excluded(p string, globs []string) bool {
	if p == "" {
		return false
	}
	p = filepath.ToSlash(p)
	for _, g := range globs {
		if matchGlob(strings.TrimPrefix(g, "./"), p) {
			return true
		}
	}
	return false
}

// matchGlob matches a path against a glob where ** spans path elements and
// a trailing /** matches everything below.
func matchGlob(glob, p string) bool {
	gs := strings.Split(glob, "/")
	ps := strings.Split(p, "/")
	return matchParts(gs, ps)
}

func matchParts(gs, ps []string) bool {
	for len(gs) > 0 {
		if gs[0] == "**" {
			if len(gs) == 1 {
				return true
			}
			for i := 0; i <= len(ps); i++ {
				if matchParts(gs[1:], ps[i:]) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, err := path.Match(gs[0], ps[0]); err != nil || !ok {
			return false
		}
		gs, ps = gs[1:], ps[1:]
	}
	return len(ps) == 0
}
