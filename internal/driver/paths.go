package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
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
func loadSchema(p string, tx *texts) (*givenSchema, error) {
	l, err := schema.LoadWith(p, tx.keep)
	if err != nil {
		return nil, err
	}
	g := &givenSchema{Loaded: l, files: map[string]bool{}, real: map[string]bool{}}
	for i, f := range l.Files {
		if real, err := realPath(f); err == nil {
			g.real[real] = true
		}
		l.Files[i] = lint.DisplayPath(f)
		g.files[l.Files[i]] = true
	}
	for _, t := range l.Schema.Tables {
		if t.Created.File != "" {
			t.Created.File = lint.DisplayPath(t.Created.File)
		}
	}
	for _, r := range l.Replay {
		r.File = lint.DisplayPath(r.File)
	}
	return g, nil
}

// addSuppressions records the guard:ignore comments of the schema's files,
// except those of migrations the walk reads anyway.
func (g *givenSchema) addSuppressions(col *collector, migrationDirs []string, tx *texts) error {
	if g == nil {
		return nil
	}
	walked := map[string]bool{}
	for _, d := range migrationDirs {
		walked[lint.DisplayPath(d)] = true
	}
	for _, f := range g.Files {
		if walked[lint.DisplayPath(filepath.Dir(filepath.FromSlash(f)))] {
			continue
		}
		src, err := tx.take(filepath.FromSlash(f))
		if err != nil {
			return fmt.Errorf("read %s: %v", f, err)
		}
		col.addFile(sqlfile.ExtractSQL(f, src), anchors{})
	}
	return nil
}

// countFiles adds the schema's files to the summary, but for the migrations
// the walk counted already. Their statements are not added: Statements
// counts what the query and migration rules checked, and the schema's
// statements reach the rules as tables.
func (g *givenSchema) countFiles(s *lint.Summary, migs []*lint.Migration) {
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

// underRoots keeps the findings in files below the paths asked for, and,
// when a folder is among them, those on the --schema files wherever they
// lie: naming one migration file replays its whole folder for the schema,
// but reports on that file only. Paths that are all files (a pre-commit
// hook's staged files) report on those files only, --schema or not.
func underRoots(fs []lint.Finding, roots []string, g *givenSchema) []lint.Finding {
	if g != nil && onlyFiles(roots) {
		g = nil
	}
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
		d := lint.DisplayPath(r)
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

// onlyFiles tells whether every path names a file, not a folder.
func onlyFiles(paths []string) bool {
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return false
		}
	}
	return len(paths) > 0
}
