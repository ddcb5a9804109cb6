package migrator

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/golang-migrate/migrate/v4/database"
)

// When the state cannot be read back, a failure while golang-migrate ran a
// file is a dirty state at the version it recorded before running it; a
// failure to record the version is not.
func TestStateUnread(t *testing.T) {
	m := &Migrator{opts: Options{Dir: "m"}, migrations: []Migration{
		{Version: 1, Name: "a", Up: "1_a.up.sql", Down: "1_a.down.sql"},
		{Version: 3, Name: "b", Up: "3_b.up.sql", Down: "3_b.down.sql"},
	}}
	gone := errors.New("connect: connection refused")
	ran := database.Error{OrigErr: mysql.ErrInvalidConn, Err: "migration failed", Query: []byte("ALTER TABLE t ADD CHECK (q >= 0)")}
	for _, tc := range []struct {
		name    string
		step    Step
		version int
		force   int
		file    string
	}{
		{"up", Step{Version: 3, File: filepath.Join("m", "3_b.up.sql"), Up: true}, 3, 1, filepath.Join("m", "3_b.up.sql")},
		{"down", Step{Version: 3, File: filepath.Join("m", "3_b.down.sql")}, 1, 3, filepath.Join("m", "3_b.down.sql")},
	} {
		err := m.stateUnread(lostDuring(tc.step, m.migrations, ran), gone)
		var dirty *DirtyError
		if !errors.As(err, &dirty) {
			t.Fatalf("%s: err = %v, want a DirtyError", tc.name, err)
		}
		if dirty.Version != tc.version || dirty.Force != tc.force || dirty.File != tc.file || dirty.Unread != gone {
			t.Errorf("%s: %+v, want version %d, force %d, file %s", tc.name, dirty, tc.version, tc.force, tc.file)
		}
		if !errors.Is(err, mysql.ErrInvalidConn) || !strings.Contains(err.Error(), "the server cannot be read back (connect: connection refused)") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// golang-migrate failed to record the version: nothing says it is dirty.
	setVersion := &database.Error{OrigErr: mysql.ErrInvalidConn, Err: "transaction start failed"}
	err := m.stateUnread(lostDuring(Step{Version: 3, Up: true}, m.migrations, setVersion), gone)
	var dirty *DirtyError
	if errors.As(err, &dirty) || !errors.Is(err, gone) {
		t.Errorf("failed SetVersion: err = %v, want both errors, not dirty", err)
	}
	// Neither is a lock wait, which guard puts back itself.
	if ranAndTimedOut(ran) || ranAndTimedOut(setVersion) {
		t.Error("a lost connection taken for a lock wait")
	}
	if !ranAndTimedOut(database.Error{OrigErr: &mysql.MySQLError{Number: 1205}, Err: "migration failed"}) {
		t.Error("error 1205 of a file not taken for a lock wait")
	}
	if ranAndTimedOut(&database.Error{OrigErr: &mysql.MySQLError{Number: 1205}}) {
		t.Error("error 1205 recording the version taken for the file's")
	}
}
