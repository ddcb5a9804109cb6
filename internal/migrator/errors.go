package migrator

import (
	"fmt"
	"strconv"
	"strings"
)

// DirtyError reports a database whose migration version is dirty: a
// migration failed part-way, and golang-migrate refuses to run another until
// the version is forced. MySQL DDL is not transactional, so the statements of
// the failed file that ran before the failing one stay applied.
type DirtyError struct {
	// Version is the dirty version recorded in schema_migrations.
	Version int
	// Force is the version to force once the database is repaired by hand:
	// the last version applied in full. After a failed up migration that is
	// the version before the dirty one; after a failed down migration of
	// version X (recorded dirty at the version before X) it is X.
	Force int
	// File is the file that failed, when known.
	File string
	// Up tells whether File is an up migration.
	Up bool
	// Cause is the error of the failed migration; nil when the dirty state
	// was found at the start of a run.
	Cause error
	// Unread is why the state could not be read back after Cause (the
	// server went away mid-file): Version is then the one golang-migrate
	// recorded dirty before running File.
	Unread error
}

// ForceCommand returns the command that clears the dirty flag: guard migrate
// force V, with -- before a negative V so that it is not read as a flag.
func ForceCommand(v int) string {
	if v < 0 {
		return "guard migrate force -- " + strconv.Itoa(v)
	}
	return "guard migrate force " + strconv.Itoa(v)
}

// Error states the dirty version and the command that clears it.
func (e *DirtyError) Error() string {
	var b strings.Builder
	if e.Cause != nil {
		fmt.Fprintf(&b, "%s failed: %v; ", displayFile(e.File), e.Cause)
	}
	if e.Unread != nil {
		fmt.Fprintf(&b, "the server cannot be read back (%v), but golang-migrate recorded the version dirty before running the file: ", e.Unread)
	}
	fmt.Fprintf(&b, "version %d is dirty: fix the database by hand, then run `%s`", e.Version, ForceCommand(e.Force))
	switch {
	case e.File != "" && e.Up:
		fmt.Fprintf(&b, " (%d: the last version applied in full, before the failed up migration %d)", e.Force, e.Version)
	case e.File != "":
		fmt.Fprintf(&b, " (%d: the version whose down migration failed)", e.Force)
	default:
		fmt.Fprintf(&b, " (%d: the version before %d, right when the up migration of %d failed; "+
			"after a failed down migration force the version it was undoing)", e.Force, e.Version, e.Version)
	}
	return b.String()
}

// Unwrap returns the error of the failed migration.
func (e *DirtyError) Unwrap() error { return e.Cause }

// Explain tells how to repair the database before forcing the version.
func (e *DirtyError) Explain() string {
	if e.Unread != nil && e.File != "" && e.Up {
		return fmt.Sprintf("Once the server is back, see what %s left: a statement cut off by the crash is rolled back when the server "+
			"restarts (atomic DDL: MySQL 8, MariaDB 10.6+), the statements before it stay applied. "+
			"Undo those and force %d, or finish the file by hand and force %d.", displayFile(e.File), e.Force, e.Version)
	}
	if e.Unread != nil {
		return "Once the server is back: " + e.explain()
	}
	return e.explain()
}

func (e *DirtyError) explain() string {
	switch {
	case e.File != "" && e.Up:
		return fmt.Sprintf("%s stopped part-way: the statements before the failing one stay applied (MySQL DDL is not transactional). "+
			"Undo them and force %d, or finish the file by hand and force %d.", displayFile(e.File), e.Force, e.Version)
	case e.File != "":
		return fmt.Sprintf("%s stopped part-way: redo what it undid and force %d, or finish undoing by hand and force %d.",
			displayFile(e.File), e.Force, e.Version)
	}
	return "A migration stopped part-way: the statements before the failing one stay applied (MySQL DDL is not transactional). " +
		"Undo them or finish the migration by hand, then force the version the database is really at."
}

func displayFile(f string) string {
	if f == "" {
		return "the migration"
	}
	return f
}

// FileError is a statement of a migration file that does not parse.
type FileError struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Msg    string `json:"message"`
}

// String prints FILE:LINE:COL: message.
func (e FileError) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// ParseError lists the statements of the pending files that do not parse:
// preflight cannot check what it cannot read. Nothing was applied.
type ParseError struct {
	Errors []FileError
}

// Error lists every statement that does not parse, one per line.
func (e *ParseError) Error() string {
	lines := make([]string, len(e.Errors))
	for i, fe := range e.Errors {
		lines[i] = fe.String()
	}
	return fmt.Sprintf("%d statement(s) of the pending migrations do not parse (nothing was applied; --skip-preflight applies them unchecked):\n%s",
		len(e.Errors), strings.Join(lines, "\n"))
}

// RefusedError is returned when preflight finds rows that a pending
// constraint would reject: nothing was applied. Probes holds the report.
type RefusedError struct {
	Probes []Probe
}

// Error counts the guards that would fail; Probes holds the details.
func (e *RefusedError) Error() string {
	n := 0
	for _, p := range e.Probes {
		if p.Status == StatusFail {
			n++
		}
	}
	return fmt.Sprintf("preflight: %d constraint(s) of the pending migrations would fail on existing rows; nothing was applied", n)
}

// VerifyError is returned when a guard that an applied file adds is not
// found in the database afterwards.
type VerifyError struct {
	Missing []Verification
}

// Error names the guards that were not found.
func (e *VerifyError) Error() string {
	parts := make([]string, len(e.Missing))
	for i, v := range e.Missing {
		parts[i] = v.Guard.String()
		if v.Note != "" {
			parts[i] += " (" + v.Note + ")"
		}
	}
	return "verification failed: not found after the migration: " + strings.Join(parts, "; ")
}
