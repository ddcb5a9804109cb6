package migrator

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/guard-sql/guard/internal/schema"
)

// Migration is one version of a golang-migrate directory: its up file, its
// down file, or both, named exactly NNN_title.up.sql / NNN_title.down.sql.
type Migration struct {
	Version uint   `json:"version"`
	Name    string `json:"name"`
	// Up and Down are file names inside the directory; empty when missing.
	Up   string `json:"up,omitempty"`
	Down string `json:"down,omitempty"`
}

// ErrNoMigrations is returned for a directory without migration files.
var ErrNoMigrations = errors.New("no migration files (NNN_title.up.sql)")

// ListMigrations reads the migrations of dir, sorted by version, with the
// listing lint and plan use (schema.ListMigrations): golang-migrate is
// given exactly these files, and a file named like a migration without
// being one is an error naming it, never a version.
func ListMigrations(dir string) ([]Migration, error) {
	files, err := schema.ListMigrations(dir)
	if err != nil {
		return nil, err
	}
	byVersion := map[uint64]*Migration{}
	var out []*Migration
	for _, f := range files {
		if uint64(uint(f.Version)) != f.Version {
			return nil, fmt.Errorf("%s: version %d is too large", f.Path, f.Version)
		}
		mig := byVersion[f.Version]
		if mig == nil {
			mig = &Migration{Version: uint(f.Version), Name: f.Name}
			byVersion[f.Version] = mig
			out = append(out, mig)
		}
		if f.Up {
			mig.Up, mig.Name = filepath.Base(f.Path), f.Name
		} else {
			mig.Down = filepath.Base(f.Path)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoMigrations)
	}
	ms := make([]Migration, len(out))
	for i, m := range out {
		ms[i] = *m
	}
	return ms, nil
}

// Step is one migration file a run applies.
type Step struct {
	Version uint   `json:"version"`
	Name    string `json:"name"`
	// File is the path of the file (the directory joined with its name);
	// empty for a version without a file in that direction, which
	// golang-migrate passes over, setting the version only.
	File string `json:"file,omitempty"`
	Up   bool   `json:"up"`
}

// Errors of a run that asks for something the directory or the database
// state cannot give.
var (
	// ErrNoSuchVersion: goto or force names a version the directory lacks.
	ErrNoSuchVersion = errors.New("no migration of that version in the directory")
	// ErrTooFewApplied: down N with fewer than N migrations applied.
	ErrTooFewApplied = errors.New("fewer migrations applied than asked to undo")
	// ErrUnknownState: the database is at a version the directory lacks.
	ErrUnknownState = errors.New("the database is at a version the directory does not have")
)

// index returns the position of version v in ms, or -1.
func index(ms []Migration, v int) int {
	if v < 0 {
		return -1
	}
	for i, m := range ms {
		if int64(m.Version) == int64(v) {
			return i
		}
	}
	return -1
}

// current returns the position of the database version in ms: -1 for no
// version, ErrUnknownState for a version ms lacks.
func current(ms []Migration, st State) (int, error) {
	if st.Version < 0 {
		return -1, nil
	}
	i := index(ms, st.Version)
	if i < 0 {
		return 0, fmt.Errorf("version %d: %w", st.Version, ErrUnknownState)
	}
	return i, nil
}

func (m Migration) step(dir string, up bool) Step {
	s := Step{Version: m.Version, Name: m.Name, Up: up}
	file := m.Down
	if up {
		file = m.Up
	}
	if file != "" {
		s.File = filepath.Join(dir, file)
	}
	return s
}

// upSteps returns the up steps from the database state to the migration at
// position to (inclusive); to = len(ms)-1 is all the way up.
func upSteps(dir string, ms []Migration, cur, to int) []Step {
	var out []Step
	for i := cur + 1; i <= to; i++ {
		out = append(out, ms[i].step(dir, true))
	}
	return out
}

// downSteps returns the down steps from the migration at position cur down
// to, but not including, position to (-1: every applied migration).
func downSteps(dir string, ms []Migration, cur, to int) []Step {
	var out []Step
	for i := cur; i > to; i-- {
		out = append(out, ms[i].step(dir, false))
	}
	return out
}

// previous returns the version before v in ms, or -1 when v is the first (or
// absent and below every version).
func previous(ms []Migration, v int) int {
	prev := -1
	for _, m := range ms {
		if int64(m.Version) >= int64(v) {
			break
		}
		prev = int(m.Version)
	}
	return prev
}

// next returns the version after v in ms (the first one for v = -1), or -1.
func next(ms []Migration, v int) int {
	for _, m := range ms {
		if int64(m.Version) > int64(v) {
			return int(m.Version)
		}
	}
	return -1
}
