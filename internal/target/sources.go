package target

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ReadFile reads a targets file: one DSN per line; blank lines and lines
// starting with # are skipped, and a # after a space or tab starts a
// comment to the end of the line (a # inside a DSN, as in a password, is
// kept). Errors name FILE:LINE.
func ReadFile(file string) ([]*Target, error) {
	ts, _, err := readTargets(file)
	return ts, err
}

func readTargets(file string) ([]*Target, []string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, fmt.Errorf("targets file %s: %w", file, err)
	}
	return parseTargets(file, data)
}

// parseTargets returns the targets of a targets file and, for each, the
// FILE:LINE it came from.
func parseTargets(file string, data []byte) ([]*Target, []string, error) {
	var out []*Target
	var where []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		text = withoutComment(text)
		if strings.TrimSpace(text) == "" {
			continue
		}
		t, err := Parse(text)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		out = append(out, t)
		where = append(where, fmt.Sprintf("%s:%d", file, line))
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("targets file %s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("targets file %s: no DSN in it", file)
	}
	return out, where, nil
}

// withoutComment cuts a targets-file line at its comment: a # that starts
// the line or follows a space or a tab.
func withoutComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (strings.TrimSpace(line[:i]) == "" || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}

// Sources says where the DSNs of a command come from.
type Sources struct {
	DSNs        []string // --dsn, in order
	TargetsFile string   // --targets
	Env         string   // GUARD_DSN, used when neither of the above is given
}

// DuplicateError is a target given twice: the same host:port/db, whatever
// the credentials. Running it twice would double its work, and keeping
// either DSN would pick one set of credentials silently.
type DuplicateError struct {
	Target       string // host:port/db
	First, Again string // where each was given: --dsn #N, FILE:LINE
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("target %s is given twice (%s and %s): give each database once", e.Target, e.First, e.Again)
}

// Collect parses every DSN of src, in order. Errors name the source
// (--dsn #N, FILE:LINE, GUARD_DSN) and never hold any text of a DSN; a
// target given twice is a *DuplicateError.
func Collect(src Sources) ([]*Target, error) {
	var out []*Target
	var where []string
	for i, d := range src.DSNs {
		t, err := Parse(d)
		if err != nil {
			return nil, fmt.Errorf("--dsn #%d: %w", i+1, err)
		}
		out = append(out, t)
		where = append(where, fmt.Sprintf("--dsn #%d", i+1))
	}
	if src.TargetsFile != "" {
		ts, w, err := readTargets(src.TargetsFile)
		if err != nil {
			return nil, err
		}
		out, where = append(out, ts...), append(where, w...)
	}
	if len(out) == 0 && strings.TrimSpace(src.Env) != "" {
		t, err := Parse(src.Env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvDSN, err)
		}
		out, where = append(out, t), append(where, EnvDSN)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no target: give --dsn DSN, --targets FILE or set %s", EnvDSN)
	}
	seen := map[string]int{}
	for i, t := range out {
		if first, ok := seen[t.Name()]; ok {
			return nil, &DuplicateError{Target: t.Name(), First: where[first], Again: where[i]}
		}
		seen[t.Name()] = i
	}
	return out, nil
}

// One parses the DSN of a command working on one database: dsn, else the
// value of GUARD_DSN (env). Its errors name the source and never hold any
// text of the DSN.
func One(dsn, env string) (*Target, error) {
	from := "--dsn"
	if dsn == "" {
		dsn, from = env, EnvDSN
	}
	if strings.TrimSpace(dsn) == "" {
		return nil, ErrNoTarget
	}
	t, err := Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	return t, nil
}

// ErrNoTarget is returned by One when neither --dsn nor GUARD_DSN is given.
var ErrNoTarget = errors.New("no database: give --dsn DSN or set " + EnvDSN)
