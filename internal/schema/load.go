package schema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// ErrNoSchemaFiles is returned by Load for a folder that holds neither
// golang-migrate up files nor .sql dumps.
var ErrNoSchemaFiles = errors.New("holds neither golang-migrate files (NNN_title.up.sql) nor .sql dumps")

// Loaded is a schema replayed from files, with the files it was read from.
type Loaded struct {
	Schema *Schema
	// Replay holds what replay could not apply, in replay order.
	Replay []*ReplayError
	// Files lists the files replayed, in replay order: the path given to
	// Load, joined with the file name for a folder.
	Files []string
}

// Load replays the schema a user names by one path: a golang-migrate folder
// (its up files in version order), one dump file, or a folder of dumps (its
// .sql files, in name order with digit runs compared as numbers, so that
// V2__x.sql comes before V10__y.sql). A folder counts as a migrations folder
// as soon as it holds one up file; subfolders are not read. A folder with
// neither is ErrNoSchemaFiles, since an empty schema would silence every
// schema rule without a word.
func Load(path string) (*Loaded, error) { return LoadWith(path, os.ReadFile) }

// LoadWith is Load reading each file with read.
func LoadWith(path string, read func(string) ([]byte, error)) (*Loaded, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("schema %s: no such file or directory", path)
	}
	if !info.IsDir() {
		return replayFiles([]string{path}, true, read)
	}
	files, err := ListMigrations(path)
	if err != nil {
		return nil, err
	}
	var ups []string
	for _, f := range files {
		if f.Up {
			ups = append(ups, f.Path)
		}
	}
	if len(ups) > 0 {
		return replayFiles(ups, false, read)
	}
	dumps, err := dumpFiles(path)
	if err != nil {
		return nil, err
	}
	if len(dumps) == 0 {
		return nil, fmt.Errorf("schema %s: folder %w", path, ErrNoSchemaFiles)
	}
	return replayFiles(dumps, true, read)
}

// dumpFiles lists the .sql files of dir that are not migration files, in
// natural order. Hidden files and subfolders are left out.
func dumpFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list dumps: %w", err)
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.EqualFold(filepath.Ext(name), ".sql") {
			continue
		}
		if _, _, ok := IsMigrationName(name); ok {
			continue
		}
		// A link to a file counts; a folder, or a link to one, does not.
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || !info.Mode().IsRegular() {
			continue
		}
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return naturalLess(names[i], names[j]) })
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out, nil
}

// naturalLess orders names with runs of digits compared by value: "v2" before
// "v10". Equal values with different leading zeros fall back to the text.
func naturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := digitsEnd(a, i), digitsEnd(b, j)
			na, nb := strings.TrimLeft(a[i:ei], "0"), strings.TrimLeft(b[j:ej], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return a[i] < b[j]
		}
		i, j = i+1, j+1
	}
	if len(a)-i != len(b)-j {
		return len(a)-i < len(b)-j
	}
	return a < b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// replayFiles replays the files in order as one script: a later file may
// alter or drop what an earlier one created. In dumps, statements that are not
// table DDL are skipped even when they do not parse (see statementsOf).
func replayFiles(paths []string, dump bool, read func(string) ([]byte, error)) (*Loaded, error) {
	p := sqlparse.NewParser()
	l := &Loaded{}
	var stmts []DDL
	for _, path := range paths {
		b, err := read(path)
		if err != nil {
			if dump {
				return nil, fmt.Errorf("load dump: %w", err)
			}
			return nil, fmt.Errorf("load migrations: %w", err)
		}
		stmts = append(stmts, statementsOf(p, path, string(b), dump)...)
		l.Files = append(l.Files, path)
	}
	l.Schema, l.Replay = FromDDL(stmts)
	return l, nil
}
