package codegen

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// TableSpec describes a new guarded table for guard gen table.
type TableSpec struct {
	Name string
	// Counters become BIGINT NOT NULL DEFAULT 0 with CHECK (c >= 0), Keys
	// VARCHAR(64) NOT NULL with a UNIQUE index each, States VARCHAR(32) NOT
	// NULL.
	Counters, Keys, States []string
	// VersionColumn names the compare-and-set column; empty means "version".
	VersionColumn string
}

// Migration is what the migration templates render.
type Migration struct {
	Table         string
	VersionColumn string
	// Definitions are the column, key and constraint definitions of the
	// CREATE TABLE, in order, ready to join with commas.
	Definitions []string
}

// maxIdent is the longest identifier MySQL and MariaDB accept.
const maxIdent = 64

// NewMigration checks spec and returns the data of its migration: an InnoDB
// table with a BIGINT UNSIGNED AUTO_INCREMENT primary key id, the keys,
// counters and states in that order, and the version column.
func NewMigration(spec TableSpec) (*Migration, error) {
	version := spec.VersionColumn
	if version == "" {
		version = "version"
	}
	if err := checkIdent("table", spec.Name); err != nil {
		return nil, err
	}
	seen := map[string]string{"id": "the primary key", strings.ToLower(version): "the version column"}
	for _, group := range []struct {
		what string
		cols []string
	}{{"business key", spec.Keys}, {"counter", spec.Counters}, {"state", spec.States}} {
		for _, c := range group.cols {
			if err := checkIdent(group.what, c); err != nil {
				return nil, err
			}
			if other, dup := seen[strings.ToLower(c)]; dup {
				return nil, fmt.Errorf("%s %s is already %s", group.what, c, other)
			}
			seen[strings.ToLower(c)] = "a " + group.what
		}
	}
	m := &Migration{Table: spec.Name, VersionColumn: version}
	add := func(format string, args ...any) { m.Definitions = append(m.Definitions, fmt.Sprintf(format, args...)) }
	add("%s BIGINT UNSIGNED NOT NULL AUTO_INCREMENT", quoteIdent("id"))
	for _, k := range spec.Keys {
		add("%s VARCHAR(64) NOT NULL", quoteIdent(k))
	}
	for _, c := range spec.Counters {
		add("%s BIGINT NOT NULL DEFAULT 0", quoteIdent(c))
	}
	for _, s := range spec.States {
		add("%s VARCHAR(32) NOT NULL", quoteIdent(s))
	}
	add("%s BIGINT UNSIGNED NOT NULL DEFAULT 0", quoteIdent(version))
	add("PRIMARY KEY (%s)", quoteIdent("id"))
	for _, k := range spec.Keys {
		add("UNIQUE KEY %s (%s)", quoteIdent(constraintName("uk_"+spec.Name+"_"+k)), quoteIdent(k))
	}
	for _, c := range spec.Counters {
		// MySQL names CHECK constraints per schema, not per table: the
		// table's name keeps them apart.
		add("CONSTRAINT %s CHECK (%s >= 0)", quoteIdent(constraintName("chk_"+spec.Name+"_"+c)), quoteIdent(c))
	}
	return m, nil
}

// checkIdent accepts the identifiers a scaffold can use unquoted anywhere:
// ASCII letters, digits and _, not starting with a digit, at most 64 long.
func checkIdent(what, name string) error {
	if name == "" {
		return fmt.Errorf("empty %s name", what)
	}
	if len(name) > maxIdent {
		return fmt.Errorf("%s name %s is longer than %d characters", what, name, maxIdent)
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && !(i > 0 && r >= '0' && r <= '9') {
			return fmt.Errorf("%s name %q: use ASCII letters, digits and _, not starting with a digit", what, name)
		}
	}
	return nil
}

// constraintName shortens a name beyond 64 characters, keeping it unique
// with a hash of the whole.
func constraintName(name string) string {
	if len(name) <= maxIdent {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s_%08x", name[:maxIdent-9], h.Sum32())
}

// MigrationFiles returns the file names of the migration of table at
// version: NNNNNN_create_<table>.up.sql and .down.sql.
func MigrationFiles(version uint64, table string) (up, down string) {
	base := fmt.Sprintf("%06d_create_%s", version, strings.ToLower(table))
	return base + ".up.sql", base + ".down.sql"
}

// RenderMigration renders the up and down files of m at version.
func (t *Templates) RenderMigration(m *Migration, version uint64) (map[string][]byte, error) {
	upName, downName := MigrationFiles(version, m.Table)
	up, err := t.execute(tmplMigrationUp, m)
	if err != nil {
		return nil, err
	}
	down, err := t.execute(tmplMigrationDown, m)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{upName: up, downName: down}, nil
}

// NextMigrationVersion returns the version after the highest one of the
// golang-migrate files in dir; 1 when dir is empty or missing.
func NextMigrationVersion(dir string) (uint64, error) {
	files, err := schema.ListMigrations(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	var last uint64
	for _, f := range files {
		last = max(last, f.Version)
	}
	return last + 1, nil
}

// TableFromMigration replays the up migration of a scaffold and returns its
// table: the DAO is generated from what the migration really creates.
func TableFromMigration(file string, up []byte, table string) (*schema.Table, error) {
	s, errs := schema.FromDDL([]schema.DDL{{SQL: string(up), File: file, Line: 1, Col: 1}})
	if len(errs) > 0 {
		return nil, fmt.Errorf("replay scaffolded migration: %w", errs[0])
	}
	t := s.Table(table)
	if t == nil {
		return nil, fmt.Errorf("replay scaffolded migration %s: no table %s", file, table)
	}
	return t, nil
}

// PolicyNotes lists what the policy does not know of spec: columns named
// counters, keys or states that its heuristics would not recognise, so
// that guard lint would not guard their writes.
func PolicyNotes(spec TableSpec, pol *policy.Policy) []string {
	var notes []string
	for _, c := range spec.Counters {
		if !pol.IsCounter(spec.Name, c) {
			notes = append(notes, fmt.Sprintf("counter %s is not a counter for the policy: add it to [schema] counter_columns so that guard lint guards its writes", c))
		}
	}
	for _, k := range spec.Keys {
		if !pol.IsBusinessKey(spec.Name, k) {
			notes = append(notes, fmt.Sprintf("business key %s is not one for the policy: add it to [schema] business_keys so that guard lint keeps it UNIQUE", k))
		}
	}
	for _, s := range spec.States {
		if !pol.IsState(spec.Name, s) {
			notes = append(notes, fmt.Sprintf("state %s is not a state column for the policy: add it to [schema] state_columns so that guard lint checks its transitions", s))
		}
	}
	return notes
}
