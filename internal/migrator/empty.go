package migrator

import (
	"errors"
	"fmt"
	"strings"
)

// sqlBlanks are the characters the server skips between tokens.
const sqlBlanks = " \t\r\n\f\v"

// ErrEmptyMigration is wrapped by the error of a run that would execute a
// migration file holding nothing but blanks. golang-migrate sends its text
// as it is, the server answers 1065 "Query was empty", and the version is
// left dirty although nothing ran. A file holding only a comment is
// golang-migrate's documented way of a migration that does nothing, and the
// server accepts it.
var ErrEmptyMigration = errors.New("no SQL statement, the file is empty")

// EmptyError lists the files of a run that are empty or hold only blanks.
// Nothing was applied.
type EmptyError struct {
	Files []string
}

// Error names every empty file and the way out.
func (e *EmptyError) Error() string {
	return fmt.Sprintf("%s: %v (golang-migrate would fail on it with 1065 Query was empty and leave the version dirty; "+
		"nothing was applied): write its statement, or a comment such as `-- nothing to do` for a migration that does nothing",
		strings.Join(e.Files, ", "), ErrEmptyMigration)
}

// Is makes errors.Is(err, ErrEmptyMigration) and errors.Is(err,
// ErrDirectory) hold: an empty file is an input error, like a misnamed one.
func (e *EmptyError) Is(target error) bool {
	return target == ErrEmptyMigration || target == ErrDirectory
}

// emptySteps returns an EmptyError for the files of steps that are empty
// or blank, nil when every file has something for the server to read.
func emptySteps(steps []Step) error {
	var empty []string
	for _, s := range steps {
		if s.File == "" {
			continue
		}
		b, err := readBody(s.File)
		if err != nil {
			return fmt.Errorf("read migration: %w", err)
		}
		if strings.Trim(string(b), sqlBlanks) == "" {
			empty = append(empty, s.File)
		}
	}
	if len(empty) > 0 {
		return &EmptyError{Files: empty}
	}
	return nil
}
