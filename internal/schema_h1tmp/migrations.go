package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

// MigrationFile is one golang-migrate file: NNN_title.up.sql or NNN_title.down.sql.
type MigrationFile struct {
	// Path is the directory given to ListMigrations joined with the file name.
	Path    string
	Version uint64
	// Name is the title between the version and the direction.
	Name string
	// Up is true for .up.sql files, false for .down.sql files.
	Up bool
}

// migrationName is golang-migrate's file naming. It matches file names only,
// never SQL.
var migrationName = regexp.MustCompile(`^([0-9]+)_(.*)\.(up|down)\.sql$`)

// IsMigrationName reports whether base, a file name without directory, is a
// golang-migrate file name, with its version and direction.
func IsMigrationName(base string) (version uint64, up bool, ok bool) {
	_, version, up, ok = parseMigrationName(base)
	return version, up, ok
}

func parseMigrationName(base string) (name string, version uint64, up bool, ok bool) {
	m := migrationName.FindStringSubmatch(base)
	if m == nil {
		return "", 0, false, false
	}
	v, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil {
		return "", 0, false, false // a version beyond uint64 is no version golang-migrate can run
	}
	return m[2], v, m[3] == "up", true
}

// ListMigrations returns the golang-migrate files of dir (not its
// subdirectories), sorted by version, the up file before the down file of a
// version. Other files are left out. Two files of the same version and
// direction are an error naming both, as golang-migrate refuses them too.
func ListMigrations(dir string) ([]MigrationFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var files []MigrationFile
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name, version, up, ok := parseMigrationName(e.Name())
		if !ok {
			continue
		}
		files = append(files, MigrationFile{Path: filepath.Join(dir, e.Name()), Version: version, Name: name, Up: up})
	}
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].Version != files[j].Version {
			return files[i].Version < files[j].Version
		}
		if files[i].Up != files[j].Up {
			return files[i].Up
		}
		return files[i].Path < files[j].Path
	})
	for i := 1; i < len(files); i++ {
		a, b := files[i-1], files[i]
		if a.Version == b.Version && a.Up == b.Up {
			dirn := "down"
			if a.Up {
				dirn = "up"
			}
			return nil, fmt.Errorf("list migrations: duplicate %s migration for version %d: %s and %s", dirn, a.Version, a.Path, b.Path)
		}
	}
	return files, nil
}
