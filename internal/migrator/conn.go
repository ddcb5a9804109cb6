package migrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/schema"
)

// MigrationsTable is where golang-migrate records the version and the
// dirty flag, as its mysql driver does by default.
const MigrationsTable = schema.MigrationsTable

// strictModes are the sql_mode flags of guard's migration connection,
// added to those the DSN sets: a migration that would truncate, clamp or
// silently change the storage engine fails instead.
var strictModes = []string{"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "ERROR_FOR_DIVISION_BY_ZERO", "NO_ENGINE_SUBSTITUTION"}

// ConnConfig returns the driver configuration guard migrates with: cfg with
// multiStatements (golang-migrate runs each file as one multi-statement
// text), the strict sql_mode flags added to the DSN's own, and no read
// timeout, since a table copy may take hours and a timeout mid-ALTER would
// leave the version dirty.
func ConnConfig(cfg *mysql.Config) *mysql.Config {
	c := cfg.Clone()
	c.MultiStatements = true
	c.ReadTimeout = 0
	if c.Params == nil {
		c.Params = map[string]string{}
	}
	c.Params["sql_mode"] = "'" + strings.Join(mergeModes(c.Params["sql_mode"], strictModes), ",") + "'"
	return c
}

// mergeModes adds the flags of add to the sql_mode value have (as a DSN
// parameter: quoted or not), keeping the order of have.
func mergeModes(have string, add []string) []string {
	have = strings.Trim(strings.TrimSpace(have), "'\"")
	var out []string
	seen := map[string]bool{}
	for _, m := range append(strings.Split(have, ","), add...) {
		m = strings.ToUpper(strings.TrimSpace(m))
		if m != "" && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// ErrBusy is returned when another guard migrate holds the database's
// migration lock for longer than the lock timeout.
var ErrBusy = errors.New("another guard migrate is running on this database")

// lockName is the advisory lock of guard's runs on a database, distinct
// from golang-migrate's own. MySQL limits lock names to 64 characters.
func lockName(database string) string { return schema.GuardName("guard_migrate", database) }

// lock takes guard's advisory lock on the database, waiting up to timeout.
// It is held across preflight, apply and verification, so that what
// preflight checked is what runs, and taken before golang-migrate opens
// (whose own lock waits only 10 s): a second run waits for the first
// instead of failing. The lock dies with its connection.
func (m *Migrator) lock(ctx context.Context) (func(), error) {
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	secs := int64(math.Ceil(m.opts.LockTimeout.Seconds()))
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, ?)", lockName(m.database), secs).Scan(&got); err != nil {
		conn.Close()
		return nil, fmt.Errorf("lock: %w", err)
	}
	if !got.Valid || got.Int64 != 1 {
		conn.Close()
		return nil, fmt.Errorf("waited %s: %w", m.opts.LockTimeout, ErrBusy)
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = conn.ExecContext(ctx, "DO RELEASE_LOCK(?)", lockName(m.database))
		conn.Close()
	}, nil
}

// State is the migration state of a database.
type State struct {
	// Version is the current version, -1 when no migration was applied.
	Version int  `json:"version"`
	Dirty   bool `json:"dirty"`
}

// String prints the state: "3", "3 (dirty)", "none".
func (s State) String() string {
	v := "none"
	if s.Version >= 0 {
		v = fmt.Sprint(s.Version)
	}
	if s.Dirty {
		v += " (dirty)"
	}
	return v
}

// errNoSuchTable is ER_NO_SUCH_TABLE.
const errNoSuchTable = 1146

// State reads the version and dirty flag from schema_migrations, as
// golang-migrate's mysql driver stores them, without creating the table.
func (m *Migrator) State(ctx context.Context) (State, error) {
	var v int64
	var dirty bool
	err := m.db.QueryRowContext(ctx, "SELECT version, dirty FROM "+quote(MigrationsTable)+" LIMIT 1").Scan(&v, &dirty)
	var me *mysql.MySQLError
	switch {
	case errors.Is(err, sql.ErrNoRows), errors.As(err, &me) && me.Number == errNoSuchTable:
		return State{Version: -1}, nil
	case err != nil:
		return State{}, fmt.Errorf("read migration version: %w", err)
	}
	return State{Version: int(v), Dirty: dirty}, nil
}
