// Package migrator applies golang-migrate directories to MySQL and MariaDB,
// with golang-migrate itself as the engine (its mysql driver, its GET_LOCK
// mutual exclusion and schema_migrations table, over guard's listing of the
// directory) and guard's checks
// around it: before anything runs, preflight parses the pending files and
// counts the existing rows that a new CHECK, UNIQUE index or NOT NULL would
// reject; after, verification reads the schema again and looks for every
// guard the files added. It is the only importer of golang-migrate.
package migrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	mysqldrv "github.com/golang-migrate/migrate/v4/database/mysql"

	"github.com/guard-sql/guard/internal/schema"
)

// DefaultLockTimeout bounds how long a run waits for another guard migrate
// on the same database to finish.
const DefaultLockTimeout = 10 * time.Minute

// DefaultDir is the migrations directory when none is given.
const DefaultDir = "migrations"

// Options configure a Migrator.
type Options struct {
	// Dir is the golang-migrate directory (default DefaultDir).
	Dir string
	// SkipPreflight applies the pending files without parsing them or
	// checking the existing rows first.
	SkipPreflight bool
	// LockTimeout bounds the wait for another guard migrate (default
	// DefaultLockTimeout).
	LockTimeout time.Duration
	// DDLLockTimeout bounds each wait of a migration's statement for a
	// lock (default DefaultDDLLockTimeout; negative: the server's own
	// lock_wait_timeout). See runStep.
	DDLLockTimeout time.Duration
	// Stop, when set, is asked between two migrations of a run: a non-nil
	// error stops the run there, at a clean version, and is the cause of
	// the run's error. A fleet stops its running targets this way when
	// another target failed.
	Stop func() error
	// MaxBlockingRows refuses, before anything runs, a statement that
	// blocks writes for its whole run on a table of more rows ([migrate]
	// max_blocking_rows); a file handed to pt-online-schema-change does
	// not block. 0: no limit.
	MaxBlockingRows int64
	// AllowBlocking lets such statements run (--allow-blocking).
	AllowBlocking bool
	// Log receives the report of a run as it goes: the preflight verdicts,
	// one line per migration as it completes, the verifications. nil
	// discards it.
	Log io.Writer
}

// ErrDirectory wraps the errors of reading the migrations directory.
var ErrDirectory = errors.New("migrations directory")

// Migrator runs the migrations of one directory against one database.
type Migrator struct {
	db *sql.DB
	// cfg is the DSN's configuration, for the tools a migration hands
	// its statement to.
	cfg      *mysql.Config
	database string
	// server is the server's flavor and version, which decide what its
	// DDL costs and what pt-online-schema-change may do.
	server     schema.Server
	migrations []Migration
	opts       Options
	// recheck is the preflight of each step of the run under way.
	recheck *recheck
	// osc are the files of the run under way that pt-online-schema-change
	// runs, by path.
	osc map[string]*oscPlan
}

// Open lists the migrations of opts.Dir and connects to the database cfg
// names, with ConnConfig's settings.
func Open(ctx context.Context, cfg *mysql.Config, opts Options) (*Migrator, error) {
	if cfg.DBName == "" {
		return nil, errors.New("the DSN names no database (add /DBNAME)")
	}
	if opts.Dir == "" {
		opts.Dir = DefaultDir
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	ms, err := ListMigrations(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDirectory, err)
	}
	conn, err := mysql.NewConnector(ConnConfig(cfg))
	if err != nil {
		return nil, fmt.Errorf("configure connection: %w", err)
	}
	db := sql.OpenDB(conn)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	var version string
	if err := db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		db.Close()
		return nil, fmt.Errorf("read the server version: %w", err)
	}
	return &Migrator{db: db, cfg: cfg.Clone(), database: cfg.DBName, server: schema.ParseServer(version), migrations: ms, opts: opts}, nil
}

// Close closes the connections.
func (m *Migrator) Close() error { return m.db.Close() }

// Migrations returns the migrations of the directory, by version.
func (m *Migrator) Migrations() []Migration { return m.migrations }

// Result is what a run did.
type Result struct {
	From State `json:"from"`
	To   State `json:"to"`
	// Applied are the migrations golang-migrate completed, in order.
	Applied []Applied `json:"applied"`
	// Preflight are the verdicts on the guards of the pending files.
	Preflight        []Probe `json:"preflight"`
	PreflightSkipped bool    `json:"preflight_skipped,omitempty"`
	// Verified are the guards of the applied files, looked for afterwards.
	Verified []Verification `json:"verified"`
	// toUnknown says that To could not be read back.
	toUnknown bool
}

// Applied is a migration golang-migrate completed.
type Applied struct {
	Step
	// Tool is the program that ran the file instead of golang-migrate
	// (pt-online-schema-change); empty for golang-migrate.
	Tool    string        `json:"tool,omitempty"`
	Elapsed time.Duration `json:"-"`
}

// Force records version v (-1: none) as clean without running anything,
// the way out of a dirty state once the database was repaired by hand.
func (m *Migrator) Force(ctx context.Context, v int) (State, error) {
	if v < -1 || (v >= 0 && index(m.migrations, v) < 0) {
		return State{}, fmt.Errorf("force %d: %w", v, ErrNoSuchVersion)
	}
	release, err := m.lock(ctx)
	if err != nil {
		return State{}, err
	}
	defer release()
	mg, _, done, err := m.engine(ctx)
	if err != nil {
		return State{}, err
	}
	err = mg.Force(v)
	done()
	if err != nil {
		return State{}, fmt.Errorf("force %d: %w", v, cause(err))
	}
	// Forcing V says the database is at V: every version up to it is
	// applied, which is also the way out of an out-of-order refusal for
	// a file whose changes were made by hand.
	if err := m.writeHistory(ctx, appliedUpTo(m.migrations, v)); err != nil {
		return State{}, err
	}
	return m.State(ctx)
}

type runKind int

const (
	runUp runKind = iota
	runDown
	runGoto
)

// run applies the steps of kind under guard's lock: preflight, golang-migrate,
// verification.
func (m *Migrator) run(ctx context.Context, kind runKind, arg int) (*Result, error) {
	release, err := m.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := m.prepare(ctx, kind, arg, true, false)
	if p == nil {
		return nil, err
	}
	res, steps, up, stmts := p.res, p.steps, p.up, p.stmts
	if err != nil {
		return res, err
	}
	// The history starts (or is brought up to date with what another
	// tool did) once the run is known to go ahead.
	if err := m.writeHistory(ctx, p.applied); err != nil {
		return res, err
	}
	if len(steps) == 0 {
		return res, nil
	}
	if !m.opts.SkipPreflight {
		m.recheck = &recheck{first: steps[0], res: res}
		defer func() { m.recheck = nil }()
	}
	m.osc = p.osc
	defer func() { m.osc = nil }()

	applied, runErr := m.apply(ctx, steps)
	res.Applied = applied
	// An interrupt stops the run between migrations; what was done is
	// still read and reported.
	interrupted := context.Cause(ctx)
	if interrupted == nil {
		interrupted = m.stopped()
	}
	ctx = context.WithoutCancel(ctx)
	if res.To, err = m.State(ctx); err != nil {
		// What the server recorded cannot be read: a dirty state inferred
		// from the failure is where it was left, else nobody knows.
		e := m.stateUnread(runErr, err)
		res.To, res.toUnknown = State{}, true
		var dirty *DirtyError
		if errors.As(e, &dirty) {
			res.To, res.toUnknown = State{Version: dirty.Version, Dirty: true}, false
		}
		return res, e
	}
	if runErr != nil {
		if res.To.Dirty {
			return res, m.dirtyAfter(res.To, up, runErr)
		}
		return res, fmt.Errorf("migrate: %w", cause(runErr))
	}
	if len(applied) < len(steps) {
		if interrupted == nil {
			interrupted = errors.New("golang-migrate ran fewer migrations than planned")
		}
		return res, fmt.Errorf("stopped after %d of %d migrations: %w", len(applied), len(steps), interrupted)
	}
	if res.Verified, err = Verify(ctx, m.db, m.database, stmts); err != nil {
		return res, err
	}
	if m.opts.Log != nil {
		WriteVerifications(m.opts.Log, res.Verified)
	}
	if missing := Missing(res.Verified); len(missing) > 0 {
		return res, &VerifyError{Missing: missing}
	}
	return res, nil
}

// plan returns the steps of a run from state st, and whether they go up.
func (m *Migrator) plan(st State, kind runKind, arg int) ([]Step, bool, error) {
	ms, dir := m.migrations, m.opts.Dir
	cur, err := current(ms, st)
	if err != nil {
		return nil, false, err
	}
	switch kind {
	case runUp:
		return upSteps(dir, ms, cur, len(ms)-1), true, nil
	case runDown:
		if arg > cur+1 {
			return nil, false, fmt.Errorf("down %d: %d applied: %w", arg, cur+1, ErrTooFewApplied)
		}
		return downSteps(dir, ms, cur, cur-arg), false, nil
	}
	to := index(ms, arg)
	if to > cur {
		return upSteps(dir, ms, cur, to), true, nil
	}
	return downSteps(dir, ms, cur, to), false, nil
}

// dirtyFound describes a dirty state found at the start of a run, when
// nothing tells which migration failed. Most often an up migration of the
// dirty version did, so the version before it is the one to force. Only a
// failed down migration of the first version records no version (-1).
func (m *Migrator) dirtyFound(st State) *DirtyError {
	if st.Version < 0 {
		return m.dirtyAfter(st, false, nil)
	}
	return &DirtyError{Version: st.Version, Force: previous(m.migrations, st.Version)}
}

// dirtyAfter describes the dirty state a failed run left. golang-migrate
// marks the target version dirty before it runs a file: the file's own
// version going up, the version before it going down.
func (m *Migrator) dirtyAfter(st State, up bool, err error) *DirtyError {
	e := &DirtyError{Version: st.Version, Up: up}
	if err != nil {
		e.Cause = cause(err)
	}
	if up {
		e.Force = previous(m.migrations, st.Version)
		if i := index(m.migrations, st.Version); i >= 0 {
			e.File = m.migrations[i].step(m.opts.Dir, true).File
		}
		return e
	}
	undone := next(m.migrations, st.Version)
	e.Force = undone
	if i := index(m.migrations, undone); i >= 0 {
		e.File = m.migrations[i].step(m.opts.Dir, false).File
	}
	return e
}

// apply runs the steps with golang-migrate, one Steps(±1) call each, and
// returns those it completed. Going one step at a time tells exactly which
// file ran, and lets an interrupt stop the run between two files (killing a
// file mid-way would leave the version dirty). Each call takes
// golang-migrate's lock and reads the version again; guard's own lock keeps
// other guard runs out in between, and a version that moved anyway (another
// tool) stops the run.
func (m *Migrator) apply(ctx context.Context, steps []Step) ([]Applied, error) {
	mg, conn, done, err := m.engine(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	var applied []Applied
	for _, step := range steps {
		if ctx.Err() != nil || m.stopped() != nil {
			return applied, nil
		}
		if err := m.recheckStep(ctx, step); err != nil {
			return applied, err
		}
		start := time.Now()
		n, want := 1, int(step.Version)
		if !step.Up {
			n, want = -1, previous(m.migrations, int(step.Version))
		}
		a := Applied{Step: step}
		var err error
		if p := m.osc[step.File]; p != nil {
			a.Tool = PTOSCBinary
			err = m.runOSC(ctx, conn, step, p)
		} else {
			err = m.runStep(ctx, mg, conn, step, n)
		}
		if err != nil {
			return applied, lostDuring(step, m.migrations, err)
		}
		a.Elapsed = time.Since(start)
		applied = append(applied, a)
		m.logf("%s\n", a)
		st, err := m.State(context.WithoutCancel(ctx))
		if err != nil {
			return applied, err
		}
		if st != (State{Version: want}) {
			return applied, fmt.Errorf("version %s after %s, want %d: another migration tool is running on this database", st, a, want)
		}
		if err := m.recordStep(context.WithoutCancel(ctx), step); err != nil {
			return applied, err
		}
	}
	return applied, nil
}

// engine opens golang-migrate on a connection of guard's pool (its mysql
// driver with the strict session) and the listed files of the directory,
// and returns that connection too, for the session settings of runStep.
func (m *Migrator) engine(ctx context.Context) (*migrate.Migrate, *sql.Conn, func(), error) {
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open migration connection: %w", err)
	}
	drv, err := mysqldrv.WithConnection(ctx, conn, &mysqldrv.Config{DatabaseName: m.database, MigrationsTable: MigrationsTable})
	if err != nil {
		conn.Close()
		return nil, nil, nil, fmt.Errorf("open golang-migrate: %w", cause(err))
	}
	src, err := newSource(m.opts.Dir, m.migrations)
	if err != nil {
		drv.Close()
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrDirectory, err)
	}
	mg, err := migrate.NewWithInstance("guard", src, "mysql", drv)
	if err != nil {
		drv.Close()
		src.Close()
		return nil, nil, nil, fmt.Errorf("open golang-migrate: %w", err)
	}
	return mg, conn, func() { mg.Close() }, nil
}

// stopped is the error of Options.Stop, nil when there is none.
func (m *Migrator) stopped() error {
	if m.opts.Stop == nil {
		return nil
	}
	return m.opts.Stop()
}

func (m *Migrator) logf(format string, args ...any) {
	if m.opts.Log != nil {
		fmt.Fprintf(m.opts.Log, format, args...)
	}
}

// cause returns the database's own error inside golang-migrate's, whose
// text repeats the whole migration file.
func cause(err error) error {
	var de database.Error
	if errors.As(err, &de) && de.OrigErr != nil {
		return de.OrigErr
	}
	var dp *database.Error
	if errors.As(err, &dp) && dp.OrigErr != nil {
		return dp.OrigErr
	}
	return err
}

// String prints the completed migration: "applied migrations/3_x.up.sql (12ms)".
func (a Applied) String() string {
	what := a.File
	if what == "" {
		what = fmt.Sprintf("version %d (no file)", a.Version)
	}
	verb := "applied"
	if !a.Up {
		verb = "undid"
	}
	if a.Tool != "" {
		what += " with " + a.Tool
	}
	return fmt.Sprintf("%s %s (%s)", verb, what, a.Elapsed.Round(time.Millisecond))
}
