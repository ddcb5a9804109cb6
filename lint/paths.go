package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/source"
)

// givenSchema is the schema --schema names. Its files are the schema, not
// query sources: a dump's INSERTs, session lines and triggers are skipped, not
// reported, and its schema findings are reported wherever it lies.
type givenSchema struct {
	*schema.Loaded
	// files holds the display paths of the files replayed.
	files map[string]bool
	// real holds their paths with symbolic links resolved.
	real map[string]bool
}

// loadSchema reads the schema named by --schema (a migrations folder, one
// dump file or a folder of dumps) and gives its files and tables display
// paths, so that its findings read like every other one.
func loadSchema(p string) (*givenSchema, error) {
	l, err := schema.Load(p)
	if err != nil {
		return nil, err
	}
	g := &givenSchema{Loaded: l, files: map[string]bool{}, real: map[string]bool{}}
	for i, f := range l.Files {
		if real, err := realPath(f); err == nil {
			g.real[real] = true
		}
		l.Files[i] = display(f)
		g.files[l.Files[i]] = true
	}
	for _, t := range l.Schema.Tables {
		if t.Created.File != "" {
			t.Created.File = display(t.Created.File)
		}
	}
	for _, r := range l.Replay {
		r.File = display(r.File)
	}
	return g, nil
}

// addSuppressions records the guard:ignore comments of the schema's files,
// except those of migrations the walk reads anyway.
func (g *givenSchema) addSuppressions(col *collector, migrationDirs []string) error {
	if g == nil {
		return nil
	}
	walked := map[string]bool{}
	for _, d := range migrationDirs {
		walked[display(d)] = true
	}
	for _, f := range g.Files {
		if walked[display(filepath.Dir(filepath.FromSlash(f)))] {
			continue
		}
		src, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			return fmt.Errorf("read %s: %v", f, err)
		}
		col.addFile(source.ExtractSQL(f, src), anchors{})
	}
	return nil
}

// countFiles adds the schema's files to the summary, but for the migrations
// the walk counted already. Their statements are not added: Statements
// counts what the query and migration rules checked, and the schema's
// statements reach the rules as tables.
func (g *givenSchema) countFiles(s *Summary, migs []*Migration) {
	if g == nil {
		return
	}
	counted := map[string]bool{}
	for _, m := range migs {
		counted[m.File] = true
	}
	for _, f := range g.Files {
		if !counted[f] {
			s.Files++
		}
	}
}

// display returns p relative to the current directory, with / separators,
// whether it was given absolute, relative or ./-prefixed. A path outside the
// current directory climbs out with ../, unless its absolute form is shorter
// (the go command's rule: ../sql/schema.sql, but /tmp/schema.sql rather
// than ../../../../tmp/schema.sql); a path on another volume (Windows) stays
// absolute. Where the current directory was reached through a symbolic
// link, a path given through the resolved location still comes out below it.
// The result depends on where the file is, never on how it was named.
func display(p string) string {
	wd, err := os.Getwd()
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

// underRoots keeps the findings in files below the paths asked for, and
// those on the --schema files wherever they lie: naming one migration file
// replays its whole folder for the schema, but reports on that file only.
func underRoots(fs []Finding, roots []string, g *givenSchema) []Finding {
	wd, err := os.Getwd()
	if err != nil {
		return fs
	}
	// Paths compare in display form, anchored at the current directory, so
	// that "src", "./src", "/abs/src" and "../here/src" all name one folder.
	anchored := func(d string) string {
		d = filepath.FromSlash(d)
		if filepath.IsAbs(d) {
			return d
		}
		return filepath.Join(wd, d)
	}
	var clean []string
	for _, r := range roots {
		d := display(r)
		if d == "." {
			return fs
		}
		clean = append(clean, anchored(d))
	}
	under := func(file string) bool {
		file = anchored(file)
		for _, r := range clean {
			if file == r || strings.HasPrefix(file, strings.TrimSuffix(r, string(filepath.Separator))+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	// The findings of a file stand together: the answer for the last file
	// serves the next finding of the same file.
	out := fs[:0]
	lastFile, lastUnder := "", false
	for _, f := range fs {
		if f.File == "" || (g != nil && g.files[f.File]) {
			out = append(out, f)
			continue
		}
		if f.File != lastFile {
			lastFile, lastUnder = f.File, under(f.File)
		}
		if lastUnder {
			out = append(out, f)
		}
	}
	return out
}
