package migrator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/golang-migrate/migrate/v4/source"
)

// bom is the UTF-8 byte order mark some Windows editors put at the start
// of a file. The server reads it as part of the first word and fails with a
// syntax error, which would leave the version dirty.
const bom = "\ufeff"

// listedSource is golang-migrate's source of a run: exactly the files
// ListMigrations returned, so that golang-migrate never reads a name of its
// own accord (its file name parser accepts 000002_x.up.sql~), with the body
// golang-migrate sends to the server read by readBody.
type listedSource struct {
	dir string
	ms  *source.Migrations
}

func newSource(dir string, ms []Migration) (*listedSource, error) {
	s := &listedSource{dir: dir, ms: source.NewMigrations()}
	for _, m := range ms {
		for _, f := range []struct {
			name string
			dir  source.Direction
		}{{m.Up, source.Up}, {m.Down, source.Down}} {
			if f.name == "" {
				continue
			}
			if !s.ms.Append(&source.Migration{Version: m.Version, Identifier: m.Name, Direction: f.dir, Raw: f.name}) {
				return nil, fmt.Errorf("%w: duplicate %s migration for version %d", ErrDirectory, f.dir, m.Version)
			}
		}
	}
	return s, nil
}

// Open is not used: the source is made by newSource, never from a URL.
func (s *listedSource) Open(string) (source.Driver, error) {
	return nil, errors.New("guard's migration source is not opened by URL")
}

// Close releases nothing: files are read whole when golang-migrate asks.
func (s *listedSource) Close() error { return nil }

// First returns the lowest version.
func (s *listedSource) First() (uint, error) {
	if v, ok := s.ms.First(); ok {
		return v, nil
	}
	return 0, s.missing("first")
}

// Prev returns the version before version.
func (s *listedSource) Prev(version uint) (uint, error) {
	if v, ok := s.ms.Prev(version); ok {
		return v, nil
	}
	return 0, s.missing("prev for version " + strconv.FormatUint(uint64(version), 10))
}

// Next returns the version after version.
func (s *listedSource) Next(version uint) (uint, error) {
	if v, ok := s.ms.Next(version); ok {
		return v, nil
	}
	return 0, s.missing("next for version " + strconv.FormatUint(uint64(version), 10))
}

// ReadUp returns the body of the up file of version; fs.ErrNotExist when
// it has none, which golang-migrate takes as a version to record only.
func (s *listedSource) ReadUp(version uint) (io.ReadCloser, string, error) {
	if m, ok := s.ms.Up(version); ok {
		return s.read(m)
	}
	return nil, "", s.missing("read up for version " + strconv.FormatUint(uint64(version), 10))
}

// ReadDown returns the body of the down file of version, as ReadUp.
func (s *listedSource) ReadDown(version uint) (io.ReadCloser, string, error) {
	if m, ok := s.ms.Down(version); ok {
		return s.read(m)
	}
	return nil, "", s.missing("read down for version " + strconv.FormatUint(uint64(version), 10))
}

func (s *listedSource) read(m *source.Migration) (io.ReadCloser, string, error) {
	b, err := readBody(filepath.Join(s.dir, m.Raw))
	if err != nil {
		return nil, "", err
	}
	return io.NopCloser(bytes.NewReader(b)), m.Identifier, nil
}

func (s *listedSource) missing(op string) error {
	return &fs.PathError{Op: op, Path: s.dir, Err: fs.ErrNotExist}
}

// readBody reads a migration file as the server is sent it: without a
// leading byte order mark. Preflight parses the same text.
func readBody(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return bytes.TrimPrefix(b, []byte(bom)), nil
}
