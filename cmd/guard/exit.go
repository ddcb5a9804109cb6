package main

import (
	"errors"
	"fmt"
)

// Exit codes of DESIGN §2.
const (
	exitClean    = 0 // nothing at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitInput    = 2 // usage, config or input error
	exitRuntime  = 3 // runtime failure: database unreachable, migration failed
	exitDirty    = 4 // dirty migration state
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error // nil when the code says all (findings)
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// inputErr marks err as bad input: exit 2.
func inputErr(err error) error { return &exitError{code: exitInput, err: err} }

// inputErrf is inputErr with formatting.
func inputErrf(format string, args ...any) error {
	return inputErr(fmt.Errorf(format, args...))
}

// codeOf returns the exit code for err; unmarked errors are runtime failures.
func codeOf(err error) int {
	if err == nil {
		return exitClean
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitRuntime
}
