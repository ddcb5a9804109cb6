package driver

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
	// real maps each source to its path with every symbolic link resolved.
	real map[string]string
	// otherEngines holds the query sources left out because their path
	// names another database engine (db/postgresql/data.sql, schema-h2.sql,
	// sys_initdb_pgsql.go, mapper/oracle/UserMapper.xml).
	otherEngines []string
	// templates holds the sources left out because their path holds a
	// code generator's placeholder (${entityName}).
	templates []string
	// flyway holds the Flyway migrations (V1.2__add_x.sql, R__views.sql)
	// left out of the query rules: their statements run once, at deploy,
	// not concurrently; --schema names the folder to build the schema.
	flyway []string
}

// otherEngineWords name database engines whose SQL guard does not check:
// projects keep a script per engine side by side (db/h2/schema.sql,
// db/postgresql/data.sql), and the MySQL parser would report every line.
var otherEngineWords = map[string]bool{
	"postgres": true, "postgresql": true, "pgsql": true, "h2": true, "hsqldb": true, "hsql": true,
	"oracle": true, "sqlserver": true, "mssql": true, "sqlite": true, "sqlite3": true, "db2": true,
	"derby": true, "cockroach": true, "cockroachdb": true, "clickhouse": true, "informix": true,
	"pointbase": true, "sapdb": true, "maxdb": true, "solid": true, "sybase": true, "firebird": true,
	"cubrid": true, "hana": true, "teradata": true, "kingbase": true, "cloudscape": true,
	"opengauss": true, "gaussdb": true, "oscar": true, "dm": true, "dm8": true, "dameng": true,
	"highgo": true, "kingbasees": true, "vastbase": true, "uxdb": true, "shentong": true, "gbase": true,
	"mogdb": true, "greenplum": true, "redshift": true, "snowflake": true, "hive": true, "presto": true,
	"trino": true, "duckdb": true, "mssqlserver": true, "tsql": true, "plsql": true, "pg": true, "tdengine": true, "taos": true,
}

// forOtherEngine reports whether a path below a walked folder names another
// engine in one of its folders or in the words of its file name.
func forOtherEngine(rel string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		for _, w := range strings.FieldsFunc(strings.ToLower(seg), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			if otherEngineWords[w] {
				return true
			}
		}
	}
	return false
}

// sourceExt lists the extensions of query source files.
var sourceExt = map[string]bool{".sql": true, ".go": true, ".java": true, ".xml": true}

// walker collects files. Symbolic links to files and folders are followed;
// a file or folder reached by two paths is taken once, under the first path
// met, and a link back to a folder being walked is not entered again.
type walker struct {
	exclude  globSet
	seenDir  map[string]bool
	seenFile map[string]bool
	in       *inputs
}

// walk collects the files below paths, leaving out the excluded ones.
// A path that does not exist is an error when required.
func walk(paths []string, exclude []string, required bool) (*inputs, error) {
	w := &walker{exclude: compileGlobs(exclude), seenDir: map[string]bool{}, seenFile: map[string]bool{}, in: &inputs{real: map[string]string{}}}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			if !required && os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("%s: no such file or directory", root)
		}
		real, err := realPath(root)
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", root, err)
		}
		if !info.IsDir() {
			w.addFile(filepath.Clean(root), real, "")
			continue
		}
		if err := w.dir(filepath.Clean(root), filepath.Clean(root), real, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	sort.Strings(w.in.migrationDirs)
	sort.Strings(w.in.sources)
	// A .sql file that lies in a migrations folder but is not an up/down file
	// is still a query source; down files are skipped entirely.
	return w.in, nil
}

// dir walks the folder p below root; real is p with its links resolved and
// open holds the real paths of the folders being walked above it.
func (w *walker) dir(root, p, real string, open map[string]bool) error {
	if open[real] {
		return nil // a link to a folder above: a loop
	}
	open[real] = true
	defer delete(open, real)
	entries, err := os.ReadDir(p)
	if err != nil {
		return fmt.Errorf("walk %s: %w", p, err)
	}
	for _, e := range entries {
		name := e.Name()
		child, childReal := filepath.Join(p, name), filepath.Join(real, name)
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			info, err := os.Stat(child)
			if err != nil {
				continue // a dangling link names nothing to lint
			}
			if childReal, err = realPath(child); err != nil {
				continue
			}
			typ = info.Mode().Type()
		}
		switch {
		case typ.IsDir():
			if strings.HasPrefix(name, ".") || name == "node_modules" || excluded(relTo(root, child), w.exclude) {
				continue
			}
			if err := w.dir(root, child, childReal, open); err != nil {
				return err
			}
		case typ.IsRegular():
			w.addFile(child, childReal, relTo(root, child))
		}
	}
	return nil
}

// addFile records the file p, whose resolved path is real and whose path
// below the walked folder is rel ("" for a file named as a path).
func (w *walker) addFile(p, real, rel string) {
	if w.seenFile[real] || excluded(rel, w.exclude) {
		return
	}
	w.seenFile[real] = true
	base := filepath.Base(p)
	if _, _, ok := schema.IsMigrationName(base); ok {
		dir := filepath.Dir(real)
		if !w.seenDir[dir] {
			w.seenDir[dir] = true
			w.in.migrationDirs = append(w.in.migrationDirs, filepath.Dir(p))
		}
		return
	}
	ext := strings.ToLower(filepath.Ext(base))
	if sourceExt[ext] && rel != "" && forOtherEngine(rel) {
		w.in.otherEngines = append(w.in.otherEngines, p)
		return
	}
	if sourceExt[ext] && rel != "" && strings.Contains(filepath.ToSlash(rel), "${") {
		// A code generator's template (…/${entityPackage}/mapper/xml/Mapper.xml):
		// FreeMarker or Velocity, not SQL, until it is rendered.
		w.in.templates = append(w.in.templates, p)
		return
	}
	if ext == ".sql" && rel != "" && flywayName(base) {
		w.in.flyway = append(w.in.flyway, p)
		return
	}
	if sourceExt[ext] {
		w.in.sources = append(w.in.sources, p)
		w.in.real[p] = real
	}
}

// realPath returns p absolute with every symbolic link resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// dropSources removes the files whose resolved paths are in real from the
// query sources.
func (in *inputs) dropSources(real map[string]bool) {
	kept := in.sources[:0]
	for _, p := range in.sources {
		if !real[in.real[p]] {
			kept = append(kept, p)
		}
	}
	in.sources = kept
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
// separators; "**" matches any number of path elements, and a trailing /**
// everything below.
func excluded(p string, globs globSet) bool {
	if p == "" || len(globs) == 0 {
		return false
	}
	ps := strings.Split(filepath.ToSlash(p), "/")
	for _, g := range globs {
		if matchParts(g, ps) {
			return true
		}
	}
	return false
}

// globSet is a list of exclude globs, each cut into its path elements once
// for every path the walk asks about.
type globSet [][]globPart

// globPart is one element of a glob: ** spans path elements, a literal is
// compared as a string, any other is a path.Match pattern.
type globPart struct {
	pattern string
	literal bool
	// rest is how many elements the glob has from this one on when none
	// of them is **, else -1: a path of another length cannot match them.
	rest int
}

func compileGlobs(globs []string) globSet {
	out := make(globSet, 0, len(globs))
	for _, g := range globs {
		var parts []globPart
		for _, s := range strings.Split(strings.TrimPrefix(g, "./"), "/") {
			parts = append(parts, globPart{pattern: s, literal: s != "**" && !strings.ContainsAny(s, `*?[\`)})
		}
		rest := 0
		for k := len(parts) - 1; k >= 0; k-- {
			if rest >= 0 && parts[k].pattern != "**" {
				rest++
			} else {
				rest = -1
			}
			parts[k].rest = rest
		}
		out = append(out, parts)
	}
	return out
}

func matchParts(gs []globPart, ps []string) bool {
	if len(gs) > 0 && gs[0].rest >= 0 && gs[0].rest != len(ps) {
		return false
	}
	for len(gs) > 0 {
		if gs[0].pattern == "**" {
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
		if gs[0].literal {
			if gs[0].pattern != ps[0] {
				return false
			}
		} else if ok, err := path.Match(gs[0].pattern, ps[0]); err != nil || !ok {
			return false
		}
		gs, ps = gs[1:], ps[1:]
	}
	return len(ps) == 0
}

// flywayName reports whether a file name is a Flyway migration's:
// V<version>__<description>.sql (or U for an undo), the version digits
// joined by . or _, or R__<description>.sql for a repeatable one.
func flywayName(base string) bool {
	name, ok := strings.CutSuffix(base, ".sql")
	if !ok || len(name) < 4 {
		return false
	}
	version, desc, ok := strings.Cut(name[1:], "__")
	if !ok || desc == "" {
		return false
	}
	switch name[0] {
	case 'R':
		return version == ""
	case 'V', 'U':
		if version == "" || version[0] < '0' || version[0] > '9' {
			return false
		}
		return strings.Trim(version, "0123456789._") == ""
	}
	return false
}
