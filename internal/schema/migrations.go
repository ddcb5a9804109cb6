package schema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
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

// migrationName is the one naming of a migration file: a version, a
// non-empty title, then .up.sql or .down.sql in lower case. It matches file
// names only, never SQL.
var migrationName = regexp.MustCompile(`^([0-9]+)_(.+)\.(up|down)\.sql$`)

// migrationShaped matches, in any case, what looks like a migration file:
// a version, then a direction, with anything around them. golang-migrate
// runs many such names (any "NNN_….up.…"), so an editor backup such as
// 000002_x.up.sql~ would be applied by migrate while lint and plan ignore
// it: a name that matches this and not migrationName is an error instead.
// A letter right after the digits (2fa.up.sql) is a word, not a version.
var migrationShaped = regexp.MustCompile(`(?i)^[0-9]+([^0-9a-z].*)?\.(up|down)(\..*)?$`)

// ErrMisnamedMigration is wrapped by the error of a migrations folder that
// holds a file named like a migration but not exactly NNN_title.up.sql or
// NNN_title.down.sql.
var ErrMisnamedMigration = errors.New("named like a migration file but not NNN_title.up.sql or NNN_title.down.sql")

// IsMigrationName reports whether base, a file name without directory, is a
// golang-migrate file name, with its version and direction.
func IsMigrationName(base string) (version uint64, up bool, ok bool) {
	_, version, up, ok = parseMigrationName(base)
	return version, up, ok
}

// LooksLikeMigration reports whether base is a migration file name or a
// name close enough to one that ListMigrations refuses it in a migrations
// folder.
func LooksLikeMigration(base string) bool {
	return migrationShaped.MatchString(base)
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

// misnamed says what is wrong with a name that looks like a migration.
func misnamed(base string) string {
	lower := strings.ToLower(base)
	switch {
	case lower != base && migrationName.MatchString(lower):
		return "the direction and extension must be lower case"
	case strings.HasSuffix(lower, ".up.sql") || strings.HasSuffix(lower, ".down.sql"):
		if migrationName.MatchString(base) {
			return "the version is too large"
		}
		return "no title: want NNN_title"
	}
	return "it does not end in .up.sql or .down.sql (an editor backup or a renamed copy?)"
}

// ListMigrations returns the golang-migrate files of dir (not its
// subdirectories), sorted by version, the up file before the down file of a
// version. It is the one listing lint, plan and migrate share. Files that do
// not look like migrations are left out; one that looks like a migration
// without being named exactly like one is an error naming it
// (ErrMisnamedMigration), as it would be a version to one tool and nothing
// to another. Two files of the same version and
// direction are an error naming both, as golang-migrate refuses them too.
func ListMigrations(dir string) ([]MigrationFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var files []MigrationFile
	var bad []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name, version, up, ok := parseMigrationName(e.Name())
		if !ok {
			if LooksLikeMigration(e.Name()) {
				bad = append(bad, fmt.Sprintf("%s: %s", filepath.Join(dir, e.Name()), misnamed(e.Name())))
			}
			continue
		}
		files = append(files, MigrationFile{Path: filepath.Join(dir, e.Name()), Version: version, Name: name, Up: up})
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("list migrations: %w (rename or remove, nothing was run):\n  %s", ErrMisnamedMigration, strings.Join(bad, "\n  "))
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
