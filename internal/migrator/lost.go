package migrator

import (
	"errors"

	"github.com/golang-migrate/migrate/v4/database"
)

// stepError is the failure of golang-migrate on one step, remembering the
// step for when the database cannot tell any more.
type stepError struct {
	step Step
	// dirty is the version golang-migrate recorded dirty before it ran
	// the step's file: the file's own going up, the one before going down.
	dirty int
	err   error
}

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

// lostDuring attaches the step to err.
func lostDuring(step Step, ms []Migration, err error) error {
	dirty := int(step.Version)
	if !step.Up {
		dirty = previous(ms, dirty)
	}
	return &stepError{step: step, dirty: dirty, err: err}
}

// stateUnread is the error of a run whose state could not be read after
// runErr, most often because the server went away (killed, crashed,
// restarted) in the middle of a file. golang-migrate records the version
// dirty before it runs a file and clean only after, so a failure while the
// file ran means the version is dirty, whatever the server can say now:
// that is a DirtyError (exit 4) with the command to run once the server is
// back, not a mere runtime failure.
func (m *Migrator) stateUnread(runErr, stateErr error) error {
	var se *stepError
	var run database.Error // golang-migrate's Run failure; SetVersion's is a *database.Error
	if !errors.As(runErr, &se) || !errors.As(se.err, &run) {
		return errors.Join(runErr, stateErr)
	}
	e := m.dirtyAfter(State{Version: se.dirty, Dirty: true}, se.step.Up, runErr)
	e.Unread = stateErr
	return e
}
