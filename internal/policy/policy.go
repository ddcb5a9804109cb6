// Package policy loads policies.toml: which columns are counters, business keys
// and states, which tables are versioned, rule severities and the lock defaults
// of generated code.
package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// Policy is the decoded policies.toml.
type Policy struct {
	Version int     `toml:"version"`
	Schema  Schema  `toml:"schema"`
	Tables  []Table `toml:"table"`
	Server  Server  `toml:"server"`
	Lint    Lint    `toml:"lint"`
	Rules   Rules   `toml:"rules"`
	Gen     Gen     `toml:"gen"`
	Lock    Lock    `toml:"lock"`
	Migrate Migrate `toml:"migrate"`

	// File is where the policy was read from; empty for the built-in defaults.
	File string `toml:"-"`
	// Inferred is the vocabulary a run learned from the code; nil when none
	// was learned (see WithInferred).
	Inferred *Inferred `toml:"-"`

	// asked, when set, records every column the classifiers are asked
	// about (see Recording).
	asked *Asked
}

// Schema holds the column heuristics.
type Schema struct {
	CounterColumns []string `toml:"counter_columns"`
	BusinessKeys   []string `toml:"business_keys"`
	StateColumns   []string `toml:"state_columns"`
	VersionColumn  string   `toml:"version_column"`
	RequireVersion *bool    `toml:"require_version"`
	// Infer, when true (the default), adds the vocabulary inferred from how
	// the code uses each column (see Inferred).
	Infer *bool `toml:"infer"`
}

// Table overrides the heuristics for the tables whose name matches the glob Name.
type Table struct {
	Name string `toml:"name"`
	// Unique lists column sets that must each have a UNIQUE index.
	Unique [][]string `toml:"unique"`
	// Counters, when set (even empty), replaces the counter heuristic.
	Counters *[]string `toml:"counters"`
	// Keys, when set, replaces the business key heuristic.
	Keys *[]string `toml:"keys"`
	// States, when set, replaces the state column heuristic.
	States *[]string `toml:"states"`
	// Versioned, when set, says whether the table must carry the version column.
	Versioned *bool `toml:"versioned"`
}

// Server holds the live server requirements.
type Server struct {
	RequireStrictMode *bool `toml:"require_strict_mode"`
}

// Lint holds what guard lint walks.
type Lint struct {
	Paths   []string `toml:"paths"`
	Exclude []string `toml:"exclude"`
}

// Gen holds code generation settings.
type Gen struct {
	StripPrefix string `toml:"strip_prefix"`
}

// Lock holds the defaults of the generated lock and what the Redis audit
// looks for.
type Lock struct {
	// KeyPattern is a Redis glob (SCAN MATCH syntax) over the keys of locks:
	// guard audit --redis checks their TTLs (GR005).
	KeyPattern  string   `toml:"key_pattern"`
	TTL         Duration `toml:"ttl"`
	Wait        Duration `toml:"wait"`
	MaxAttempts int      `toml:"max_attempts"`
	BackoffMin  Duration `toml:"backoff_min"`
	BackoffMax  Duration `toml:"backoff_max"`
}

// DefaultMaxBlockingRows is [migrate] max_blocking_rows when absent.
const DefaultMaxBlockingRows = 1_000_000

// Migrate holds what guard migrate lets run against a live server.
type Migrate struct {
	// MaxBlockingRows is the largest table (in rows) on which guard migrate
	// runs a statement that blocks writes for its whole run (a table copy);
	// above it the run is refused unless the file goes through
	// pt-online-schema-change or --allow-blocking is given. 0: no limit.
	MaxBlockingRows int64 `toml:"max_blocking_rows"`
}

// Duration is a time.Duration written as "3s" or "500ms".
type Duration struct{ time.Duration }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q (use e.g. \"3s\" or \"500ms\")", b)
	}
	if v <= 0 {
		return fmt.Errorf("duration %q must be positive", b)
	}
	d.Duration = v
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Severity is a rule severity: "error", "warning", "info" or "off".
type Severity string

// The severities, from the most to the least serious.
const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevInfo    Severity = "info"
	SevOff     Severity = "off"
)

// Rank orders severities: error 3, warning 2, info 1, off 0.
func (s Severity) Rank() int {
	switch s {
	case SevError:
		return 3
	case SevWarning:
		return 2
	case SevInfo:
		return 1
	}
	return 0
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Severity) UnmarshalText(b []byte) error {
	v := Severity(strings.ToLower(string(b)))
	switch v {
	case SevError, SevWarning, SevInfo, SevOff:
		*s = v
		return nil
	}
	return fmt.Errorf("invalid severity %q (want \"error\", \"warning\", \"info\" or \"off\")", b)
}

// Rules sets the severity of each rule code; an empty value keeps the rule's
// default. Fields are sorted by code, the order of the rule registry.
type Rules struct {
	GM001 Severity `toml:"GM001"`
	GM002 Severity `toml:"GM002"`
	GM003 Severity `toml:"GM003"`
	GM004 Severity `toml:"GM004"`
	GM005 Severity `toml:"GM005"`
	GM006 Severity `toml:"GM006"`
	GM007 Severity `toml:"GM007"`
	GM008 Severity `toml:"GM008"`
	GQ001 Severity `toml:"GQ001"`
	GQ002 Severity `toml:"GQ002"`
	GQ003 Severity `toml:"GQ003"`
	GQ004 Severity `toml:"GQ004"`
	GQ005 Severity `toml:"GQ005"`
	GQ006 Severity `toml:"GQ006"`
	GQ007 Severity `toml:"GQ007"`
	GQ008 Severity `toml:"GQ008"`
	GQ009 Severity `toml:"GQ009"`
	GQ010 Severity `toml:"GQ010"`
	GQ011 Severity `toml:"GQ011"`
	GR001 Severity `toml:"GR001"`
	GR002 Severity `toml:"GR002"`
	GR003 Severity `toml:"GR003"`
	GR004 Severity `toml:"GR004"`
	GR005 Severity `toml:"GR005"`
	GS001 Severity `toml:"GS001"`
	GS002 Severity `toml:"GS002"`
	GS003 Severity `toml:"GS003"`
	GS004 Severity `toml:"GS004"`
	GS005 Severity `toml:"GS005"`
	GS006 Severity `toml:"GS006"`
	GS007 Severity `toml:"GS007"`
	GS008 Severity `toml:"GS008"`
	GS009 Severity `toml:"GS009"`
	GS010 Severity `toml:"GS010"`
	GS011 Severity `toml:"GS011"`
	GS012 Severity `toml:"GS012"`
}

// Codes lists the rule codes policies.toml knows, in order.
func Codes() []string {
	t := reflect.TypeOf(Rules{})
	out := make([]string, t.NumField())
	for i := range out {
		out[i] = t.Field(i).Name
	}
	return out
}

// Severity returns the configured severity of code, or def when none is set.
func (p *Policy) Severity(code string, def Severity) Severity {
	v := reflect.ValueOf(p.Rules).FieldByName(code)
	if v.IsValid() && v.String() != "" {
		return Severity(v.String())
	}
	return def
}

// Default returns the built-in policy, the one DESIGN documents.
func Default() *Policy {
	// Each flag gets its own variable: the decoder writes through the
	// pointer, so a shared one would turn one key's false into all of them.
	yes, infer, strict := true, true, true
	return &Policy{
		Version: 1,
		Schema: Schema{
			CounterColumns: []string{"stock", "*_stock", "quantity", "inventory", "balance", "points"},
			BusinessKeys:   []string{"pay_no", "order_no", "out_trade_no", "*_no", "request_id"},
			StateColumns:   []string{"status", "state"},
			VersionColumn:  "version",
			RequireVersion: &yes,
			Infer:          &infer,
		},
		Server: Server{RequireStrictMode: &strict},
		Lint:   Lint{Paths: []string{"migrations", "."}, Exclude: []string{"**/testdata/**", "vendor/**", "**/*_test.go", "**/src/test/**", "**/test/**", "**/tests/**", "**/loadtest/**", "**/target/classes/**"}},
		Gen:    Gen{StripPrefix: "t_"},
		Lock: Lock{
			KeyPattern:  "lock:*",
			TTL:         Duration{3 * time.Second},
			Wait:        Duration{500 * time.Millisecond},
			MaxAttempts: 3,
			BackoffMin:  Duration{20 * time.Millisecond},
			BackoffMax:  Duration{100 * time.Millisecond},
		},
		Migrate: Migrate{MaxBlockingRows: DefaultMaxBlockingRows},
	}
}

// Error is a policy error positioned in its file.
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Load reads the policy file at path. Keys that are absent keep the built-in
// defaults. An unknown key, a wrong type or an invalid value is an *Error.
func Load(file string) (*Policy, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, &Error{File: file, Msg: fmt.Sprintf("read policy: %v", errors.Unwrap(err))}
	}
	return Parse(file, b)
}

// Parse decodes policy text; file names it in errors.
func Parse(file string, b []byte) (*Policy, error) {
	p := Default()
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, decodeError(file, err)
	}
	p.File = file
	if err := p.validate(file, b); err != nil {
		return nil, err
	}
	return p, nil
}

func decodeError(file string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		line, col := e.Position()
		return &Error{File: file, Line: line, Column: col, Msg: fmt.Sprintf("unknown key %q", strings.Join(e.Key(), "."))}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return &Error{File: file, Line: line, Column: col, Msg: strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return &Error{File: file, Line: 1, Column: 1, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}

// validate checks the values decoding cannot: version, globs, table names.
func (p *Policy) validate(file string, b []byte) error {
	at := func(key, msg string) error {
		line, col := locate(b, key)
		return &Error{File: file, Line: line, Column: col, Msg: msg}
	}
	if p.Version != 1 {
		return at("version", fmt.Sprintf("unsupported policy version %d (want 1)", p.Version))
	}
	if p.Schema.VersionColumn == "" {
		return at("version_column", "version_column must not be empty")
	}
	for _, g := range concat(p.Schema.CounterColumns, p.Schema.BusinessKeys, p.Schema.StateColumns, p.Lint.Exclude) {
		if _, err := path.Match(g, ""); err != nil {
			return at(g, fmt.Sprintf("invalid glob %q", g))
		}
	}
	for _, t := range p.Tables {
		if t.Name == "" {
			return at("[[table]]", "[[table]] entry without name")
		}
		if _, err := path.Match(t.Name, ""); err != nil {
			return at(t.Name, fmt.Sprintf("invalid table glob %q", t.Name))
		}
		for _, set := range t.Unique {
			if len(set) == 0 {
				return at("unique", fmt.Sprintf("table %q: empty unique column set", t.Name))
			}
		}
	}
	// go-toml assigns TOML strings to string-kinded fields directly, without
	// UnmarshalText, so severities are checked and normalised here.
	rules := reflect.ValueOf(&p.Rules).Elem()
	for i := 0; i < rules.NumField(); i++ {
		f := rules.Field(i)
		if f.String() == "" {
			continue
		}
		var sev Severity
		if err := sev.UnmarshalText([]byte(f.String())); err != nil {
			code := rules.Type().Field(i).Name
			line, col := locateKey(b, code)
			return &Error{File: file, Line: line, Column: col, Msg: fmt.Sprintf("rules.%s: %v", code, err)}
		}
		f.SetString(string(sev))
	}
	if p.Lock.KeyPattern == "" {
		return at("key_pattern", "key_pattern must not be empty (the default is \"lock:*\")")
	}
	if p.Lock.MaxAttempts < 1 {
		return at("max_attempts", "max_attempts must be at least 1")
	}
	if p.Lock.BackoffMin.Duration > p.Lock.BackoffMax.Duration {
		return at("backoff_min", "backoff_min must not exceed backoff_max")
	}
	if p.Migrate.MaxBlockingRows < 0 {
		line, col := locateKey(b, "max_blocking_rows")
		return &Error{File: file, Line: line, Column: col, Msg: "max_blocking_rows must not be negative (0: no limit)"}
	}
	return nil
}

// locate finds the first line holding needle, for errors about values that
// decoded fine but mean nothing; 1:1 when absent.
func locate(b []byte, needle string) (int, int) {
	for i, line := range strings.Split(string(b), "\n") {
		if c := strings.Index(line, needle); c >= 0 {
			return i + 1, c + 1
		}
	}
	return 1, 1
}

// locateKey finds the line that assigns key (a line starting with it, not a
// comment naming it); 1:1 when absent.
func locateKey(b []byte, key string) (int, int) {
	for i, line := range strings.Split(string(b), "\n") {
		rest := strings.TrimLeft(line, " \t")
		if after, ok := strings.CutPrefix(rest, key); ok && strings.HasPrefix(strings.TrimLeft(after, " \t"), "=") {
			return i + 1, len(line) - len(rest) + 1
		}
	}
	return 1, 1
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
