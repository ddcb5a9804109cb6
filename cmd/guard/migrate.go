package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/driverlog"
	"github.com/guard-sql/guard/internal/migrator"
	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/internal/target"
)

const migrateDescription = `Applies a golang-migrate directory (NNN_title.up.sql / .down.sql, any
such directory, not only guard plan's files) with golang-migrate as the engine:
its schema_migrations table and its GET_LOCK mutual exclusion, on guard's own
connection with a strict sql_mode. A file named like a migration but not
exactly one (.up.sql~, .orig, .UP.SQL, no title), or a pending file that is
empty, is exit 2 before anything runs.

Around it guard adds:
  preflight     before anything is applied, every pending file is parsed and,
                for each ADD CHECK, ADD UNIQUE / CREATE UNIQUE INDEX, ADD
                PRIMARY KEY, MODIFY/CHANGE ... NOT NULL and MODIFY/CHANGE to a
                narrower type (a shorter CHAR/VARCHAR/BINARY/TEXT, a smaller
                integer, signed to unsigned, a DECIMAL with fewer integer
                digits), the existing rows that would break it are counted,
                with up to 5 samples (primary key and value). If any would
                fail, nothing is applied (exit 3). A guard whose rows
                an earlier step changes is checked again right before its
                step; a refusal there stops at a clean version (exit 3).
                --skip-preflight applies without checking.
  out of order  (GM008) a pending up file whose version is below the applied
                one never runs under golang-migrate, which only goes up from
                its current version. guard keeps its own history of applied
                versions (table guard_migration_history, started at the
                first run on a database with every version up to the
                current one) and refuses such a file with exit 2 before
                anything runs: renumber it above the newest version, or, if
                its changes were made by hand, "guard migrate force V" with V
                the applied version records every version up to V.
  blocking DDL  a statement that blocks writes for its whole run (a table
                copy: ADD CHECK, a column type change, ALGORITHM=COPY, an
                explicit LOCK=SHARED) on a table with more rows than
                [migrate] max_blocking_rows of policies.toml (default
                1000000; 0: no limit) is refused with exit 3 before anything
                runs, naming the file, table, rows and size, unless its file
                is marked "-- guard:osc pt-osc" or --allow-blocking is given.
  --dry-run     prints, per pending statement of up, down or goto: the file,
                the table, the algorithm and lock the server will use (from
                the statement's ALGORITHM/LOCK clauses, what the operation
                needs, and the server's flavor and version), whether writes
                block, the table's rows (exact COUNT(*) below 1000000
                estimated rows, else information_schema's estimate, "~") and
                size (data + indexes), and the preflight's verdict; then the
                reasons the run would be refused. Nothing is applied and
                nothing is written, not even golang-migrate's
                schema_migrations. Its exit code is the one the run would
                end with before its first step (0, 2, 3 or 4); --format json
                gives the same as one document, --format html as one
                self-contained page. Fleets too (one table per target).
  verification  after the run, the schema is read again and every CHECK,
                UNIQUE index, NOT NULL column, added column and trigger of the
                applied files is looked for ("verified: ..."); a missing one
                is exit 3.
  one run at a time  a second guard migrate on the same database waits for
                the first (--lock-timeout) instead of failing.
  lock waits    a file of one statement runs under a session lock_wait_timeout
                (--ddl-lock-timeout, default 5s, 3 tries): behind a long
                transaction on its table it gives up instead of queueing every
                query on the table, exits 3 naming the oldest open transaction,
                and leaves the version clean, the statement never having run.

  pt-osc        a file whose comments before its statement hold the line
                "-- guard:osc pt-osc" (guard plan --osc pt-osc writes it on
                ADD CHECK) is one ALTER TABLE that guard runs through
                pt-online-schema-change --alter '<the text after the table
                name>' --execute (percona-toolkit): the rows are copied in
                chunks behind triggers while writes continue. Preflight
                runs first as for any file; a table without a primary key
                or unique index, or with foreign keys, is refused before
                anything runs (exit 3). A table with triggers of its own is
                altered with --preserve-triggers where the server allows
                several triggers per event (MariaDB 10.2.3, MySQL 5.7.2 on),
                and refused, saying why, elsewhere. The version is
                recorded only when the tool succeeded; when it aborts or
                is interrupted before the swap, the table is as it was,
                guard drops the triggers and copy it left, and the version
                stays clean (exit 3). The password reaches the tool in a
                private option file, never on its command line.
                golang-migrate alone runs the same file as plain SQL.

A file that fails part-way leaves its version dirty (MySQL DDL is not
transactional: the statements before the failing one stay applied), as does a
server that goes away mid-file. guard then exits 4 and prints the way out:
repair the database by hand, then "guard migrate force --dsn … --dir … V" with
V the last version applied in full.

DSN: --dsn user:pass@tcp(host:3306)/db or mysql://user:pass@host:3306/db, else
the GUARD_DSN environment variable. Passwords never appear in any output.

Fleets: up, down, goto and status take several --dsn, or --targets FILE (one
DSN per line, # comments), and work on --parallel N targets at once, each with
its own golang-migrate state. Before any target applies anything, every target
is checked (its state, the pending files, their preflight): one target with
rows a guard would reject, or a dirty one, and nothing is applied anywhere.
Once applying, a target that fails stops the fleet: no target starts after
it, and the running ones stop after their current migration, at a clean
version. --on-error continue runs each target on its own instead, its own
preflight guarding it alone. The report is one row per target (host:port/db,
from -> to, steps, time, outcome); the exit code is the worst of the targets'.

Examples:
   guard migrate up --dsn 'app:secret@tcp(db:3306)/shop' --dir migrations
   GUARD_DSN='mysql://app:secret@db:3306/shop' guard migrate status
   guard migrate down --dsn "$DSN" 1
   guard migrate goto --dsn "$DSN" 4
   guard migrate force --dsn "$DSN" 3       # clear a dirty flag after a repair
   guard migrate force --dsn "$DSN" -- -1   # back to "no migration applied"
   guard migrate up --format json --dsn "$DSN" > migrate.json
   guard migrate up --targets shards.txt --parallel 8
   guard migrate up --targets shards.txt --on-error continue --format json
   guard migrate up --dsn "$DSN" --dry-run        # what would run, how it locks, rows
   guard migrate goto --dsn "$DSN" --dry-run --format json 7 > plan.json
   guard migrate up --dsn "$DSN" --config policies.toml --allow-blocking

Exit codes: 0 applied or nothing to do, 2 usage or input error (a pending file
that does not parse: FILE:LINE:COL; an out-of-order file), 3 runtime failure,
preflight refusal, a blocking statement above max_blocking_rows or failed
verification, 4 dirty migration state.`

func migrateCommand() *cli.Command {
	sub := func(name, args, usage string, apply bool, action cli.ActionFunc) *cli.Command {
		return &cli.Command{
			Name:      name,
			Usage:     usage,
			ArgsUsage: args,
			Flags:     migrateFlags(apply),
			Action:    action,
		}
	}
	return &cli.Command{
		Name:        "migrate",
		Usage:       "apply golang-migrate migrations with preflight checks and verification",
		UsageText:   "guard migrate [flags] up|down N|goto V|force V|version|status [flags]",
		Description: migrateDescription,
		// The flags may come before the subcommand too (guard migrate --dsn
		// DSN status); the subcommand's own win.
		Flags: migrateFlags(true),
		Subcommands: []*cli.Command{
			sub("up", " ", "apply every pending migration", true, runMigrateUp),
			sub("down", "N", "undo the last N applied migrations", true, runMigrateDown),
			sub("goto", "V", "migrate up or down to version V", true, runMigrateGoto),
			sub("force", "V", "record version V as clean without running anything (-- -1: none)", false, runMigrateForce),
			sub("version", " ", "print the current version (exit 4 when dirty)", false, runMigrateVersion),
			sub("status", " ", "list every migration: applied, pending or dirty (exit 4 when dirty)", false, runMigrateStatus),
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usageErr(c, fmt.Sprintf("migrate: unknown subcommand %q: want up, down N, goto V, force V, version or status", c.Args().First()))
			}
			return usageErr(c, "migrate needs a subcommand: up, down N, goto V, force V, version or status")
		},
	}
}

// migrateFlags are the flags of every migrate subcommand; apply adds those
// of the subcommands that run migrations.
func migrateFlags(apply bool) []cli.Flag {
	formats := jsonReport
	if apply {
		formats = dryRunFlags
	}
	flags := append(formats.flags(),
		&cli.GenericFlag{Name: "dsn", Value: &dsnList{}, Usage: "database DSN (repeatable: a fleet); default $" + target.EnvDSN},
		&cli.StringFlag{Name: "targets", Usage: "fleet: file with one DSN per line (# comments, blank lines ignored)", TakesFile: true},
		&cli.IntFlag{Name: "parallel", Value: migrator.DefaultParallel, Usage: "fleet: targets migrated at once"},
		&cli.StringFlag{Name: "dir", Value: migrator.DefaultDir, Usage: "golang-migrate directory", TakesFile: true},
		&cli.DurationFlag{Name: "lock-timeout", Value: migrator.DefaultLockTimeout, Usage: "how long to wait for another guard migrate on the same database"},
		connectTimeoutFlag(),
	)
	if apply {
		flags = append(flags,
			&cli.BoolFlag{Name: "skip-preflight", Usage: "apply without parsing the pending files or checking the existing rows"},
			&cli.StringFlag{Name: "on-error", Value: onErrorStop, Usage: "fleet: stop (check every target first, start none after a failure) or continue (each target on its own)"},
			&cli.DurationFlag{Name: "ddl-lock-timeout", Value: migrator.DefaultDDLLockTimeout,
				Usage: fmt.Sprintf("how long a migration's statement waits for its table's lock before giving up, %d tries (0: the server's lock_wait_timeout)", migrator.DefaultDDLLockAttempts)},
			&cli.BoolFlag{Name: "dry-run", Usage: "print, per pending statement, the table, algorithm, lock, whether writes block, rows, size and the preflight's verdict; apply and write nothing"},
			&cli.BoolFlag{Name: "allow-blocking", Usage: "run statements that block writes on tables above [migrate] max_blocking_rows"},
		)
	}
	return flags
}

// session is one migrate subcommand at work: the migrator and writers that
// redact the password of its DSN.
type session struct {
	c              *cli.Context
	args           *migrateArgs
	m              *migrator.Migrator
	target         *target.Target
	stdout, stderr io.Writer
}

// openSession parses the DSN and opens the migrator.
func openSession(c *cli.Context, a *migrateArgs) (*session, error) {
	a.fromEnv = a.dsn == ""
	t, red, err := oneTarget(a.dsn, os.Getenv(target.EnvDSN))
	if err != nil {
		// The errors of target hold no text of the DSN.
		return nil, inputErrf("migrate: %v", err)
	}
	t.SetConnectTimeout(a.connectTimeout)
	// File names, SQL and server messages reach the terminal escaped; json
	// escapes them itself.
	stdout := c.App.Writer
	if a.format == "text" {
		stdout = report.PrintableWriter(stdout)
	}
	s := &session{c: c, args: a, target: t, stdout: red.Writer(stdout), stderr: red.Writer(report.PrintableWriter(c.App.ErrWriter))}
	// Text reports the run as it goes; json is one document at the end.
	opts := a.options()
	if a.format == "text" && !a.dryRun {
		opts.Log = s.stdout
	}
	cfg := t.Config()
	cfg.Logger = driverlog.MySQL(s.stderr, "guard: "+t.Name()+": driver: ")
	s.m, err = migrator.Open(c.Context, cfg, opts)
	if err != nil {
		return nil, s.fail(err)
	}
	return s, nil
}

func (s *session) close() {
	if s.m != nil {
		s.m.Close()
	}
}

// fail prints err (redacted, with its explanation) on stderr and returns
// the exit code it maps to.
func (s *session) fail(err error) error {
	fmt.Fprintf(s.stderr, "guard: %s: %v\n", s.target.Name(), err)
	var dirty *migrator.DirtyError
	var wait *migrator.LockWaitError
	switch {
	case errors.As(err, &dirty):
		fmt.Fprintf(s.stderr, "  %s\n", dirty.Explain())
		fmt.Fprintf(s.stderr, "  once repaired: %s%s\n", s.forceCommand(dirty.Force), s.forceNote())
	case errors.As(err, &wait):
		fmt.Fprintf(s.stderr, "  %s\n", wait.Explain())
	}
	return &exitError{code: migrateExitCode(err)}
}

// migrateExitCode maps the migrator's errors to guard's exit codes.
func migrateExitCode(err error) int {
	var dirty *migrator.DirtyError
	var parse *migrator.ParseError
	var order *migrator.OutOfOrderError
	var names *migrator.MissingNameError
	switch {
	case errors.As(err, &dirty):
		return exitDirty
	case errors.As(err, &parse), errors.As(err, &order), errors.As(err, &names), errors.Is(err, migrator.ErrNoSuchVersion),
		errors.Is(err, migrator.ErrTooFewApplied), errors.Is(err, migrator.ErrDirectory):
		return exitInput
	}
	return exitRuntime
}

func runMigrateUp(c *cli.Context) error {
	a, err := parseMigrateArgs(c, 0)
	if err != nil {
		return err
	}
	return runMigration(c, a, migrator.UpOp())
}

func runMigrateDown(c *cli.Context) error {
	a, err := parseMigrateArgs(c, 1)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(a.args[0])
	if err != nil || n < 1 {
		return inputErrf("down %q: want the number of migrations to undo, 1 or more", a.args[0])
	}
	return runMigration(c, a, migrator.DownOp(n))
}

func runMigrateGoto(c *cli.Context) error {
	a, err := parseMigrateArgs(c, 1)
	if err != nil {
		return err
	}
	v, err := strconv.ParseUint(a.args[0], 10, 0)
	if err != nil {
		return inputErrf("goto %q: want a version number", a.args[0])
	}
	return runMigration(c, a, migrator.GotoOp(uint(v)))
}

// runMigration runs one of up, down and goto and reports its result.
func runMigration(c *cli.Context, a *migrateArgs, op migrator.Op) error {
	if a.dryRun {
		return runDryRun(c, a, op)
	}
	if a.fleet() {
		return runFleet(c, a, op)
	}
	s, err := openSession(c, a)
	if err != nil {
		return err
	}
	defer s.close()
	res, err := s.m.Run(c.Context, op)
	if a.format == "json" {
		doc := resultDoc(res, err)
		var dirty *migrator.DirtyError
		if errors.As(err, &dirty) {
			doc.Error.ForceCommand = s.forceCommand(dirty.Force)
		}
		if werr := s.writeJSON(doc); werr != nil {
			return werr
		}
	} else if err == nil {
		res.WriteText(s.stdout)
	}
	if err != nil {
		return s.fail(err)
	}
	return nil
}

func runMigrateForce(c *cli.Context) error {
	a, err := parseMigrateArgs(c, 1)
	if err != nil {
		return err
	}
	v, err := strconv.Atoi(a.args[0])
	if err != nil || v < -1 {
		return inputErrf("force %q: want a version number, or -1 for none (guard migrate force -- -1)", a.args[0])
	}
	s, err := openSession(c, a)
	if err != nil {
		return err
	}
	defer s.close()
	st, err := s.m.Force(c.Context, v)
	if err != nil {
		return s.fail(err)
	}
	if a.format == "json" {
		return s.writeJSON(map[string]any{"tool": "guard", "version": guardVersion(), "command": "force", "target": s.target.Name(), "state": st})
	}
	fmt.Fprintf(s.stdout, "forced version %s\n", st)
	return nil
}

func runMigrateVersion(c *cli.Context) error {
	a, err := parseMigrateArgs(c, 0)
	if err != nil {
		return err
	}
	s, err := openSession(c, a)
	if err != nil {
		return err
	}
	defer s.close()
	st, err := s.m.State(c.Context)
	if err != nil {
		return s.fail(err)
	}
	if a.format == "json" {
		err = s.writeJSON(map[string]any{"tool": "guard", "version": guardVersion(), "command": "version", "target": s.target.Name(), "state": st})
	} else {
		_, err = fmt.Fprintln(s.stdout, st)
	}
	if err != nil {
		return err
	}
	return dirtyExit(st)
}

func runMigrateStatus(c *cli.Context) error {
	a, err := parseMigrateArgs(c, 0)
	if err != nil {
		return err
	}
	if a.fleet() {
		return runFleetStatus(c, a)
	}
	s, err := openSession(c, a)
	if err != nil {
		return err
	}
	defer s.close()
	st, err := s.m.Status(c.Context)
	if err != nil {
		return s.fail(err)
	}
	if a.format == "json" {
		err = s.writeJSON(struct {
			Tool    string `json:"tool"`
			Version string `json:"version"`
			Command string `json:"command"`
			Target  string `json:"target"`
			*migrator.Status
		}{"guard", guardVersion(), "status", s.target.Name(), st})
	} else {
		err = st.WriteText(s.stdout)
	}
	if err != nil {
		return err
	}
	return dirtyExit(st.State)
}

// dirtyExit is exit 4 for a dirty state, after it was printed.
func dirtyExit(st migrator.State) error {
	if st.Dirty {
		return &exitError{code: exitDirty}
	}
	return nil
}

// migrateJSON is the json report of up, down and goto.
type migrateJSON struct {
	Tool      string                  `json:"tool"`
	Version   string                  `json:"version"`
	Command   string                  `json:"command"`
	Target    string                  `json:"target"`
	From      *migrator.State         `json:"from"`
	To        *migrator.State         `json:"to"`
	Applied   []migrator.Applied      `json:"applied"`
	Preflight []migrator.Probe        `json:"preflight"`
	Skipped   bool                    `json:"preflight_skipped,omitempty"`
	Verified  []migrator.Verification `json:"verified"`
	Error     *migrateErrorJSON       `json:"error"`
}

type migrateErrorJSON struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	// Hint is the command that clears a dirty state.
	Hint string `json:"hint,omitempty"`
	// ForceCommand is Hint with the flags of this run's database and
	// directory, PASSWORD in place of the password of --dsn.
	ForceCommand string `json:"force_command,omitempty"`
	// LockHolders are the oldest open transactions when a statement gave
	// up waiting for its lock.
	LockHolders []migrator.Holder `json:"lock_holders,omitempty"`
	// ParseErrors are the statements that do not parse.
	ParseErrors []migrator.FileError `json:"parse_errors,omitempty"`
	// Blocking are the statements refused for blocking writes on a table
	// above max_blocking_rows.
	Blocking []migrator.Impact `json:"blocking,omitempty"`
	// OutOfOrder are the files below the applied version that never ran.
	OutOfOrder []migrator.OutOfOrderFile `json:"out_of_order,omitempty"`
}

func resultDoc(res *migrator.Result, err error) *migrateJSON {
	doc := &migrateJSON{Tool: "guard", Version: guardVersion(),
		Applied: []migrator.Applied{}, Preflight: []migrator.Probe{}, Verified: []migrator.Verification{}}
	if res != nil {
		doc.From, doc.To, doc.Skipped = &res.From, &res.To, res.PreflightSkipped
		if res.Applied != nil {
			doc.Applied = res.Applied
		}
		if res.Preflight != nil {
			doc.Preflight = res.Preflight
		}
		if res.Verified != nil {
			doc.Verified = res.Verified
		}
	}
	if err != nil {
		doc.Error = &migrateErrorJSON{Code: migrateExitCode(err), Message: err.Error()}
		var dirty *migrator.DirtyError
		if errors.As(err, &dirty) {
			doc.Error.Hint = migrator.ForceCommand(dirty.Force)
		}
		var parse *migrator.ParseError
		if errors.As(err, &parse) {
			doc.Error.ParseErrors = parse.Errors
		}
		var refused *migrator.RefusedError
		if errors.As(err, &refused) {
			doc.Preflight = refused.Probes
		}
		var wait *migrator.LockWaitError
		if errors.As(err, &wait) {
			doc.Error.LockHolders = wait.Holders
		}
		var blocking *migrator.BlockingError
		if errors.As(err, &blocking) {
			doc.Error.Blocking = blocking.Impacts
		}
		var order *migrator.OutOfOrderError
		if errors.As(err, &order) {
			doc.Error.OutOfOrder = order.Files
		}
	}
	return doc
}

// writeJSON writes v indented, through the redactor.
func (s *session) writeJSON(v any) error {
	if doc, ok := v.(*migrateJSON); ok {
		doc.Command, doc.Target = s.c.Command.Name, s.target.Name()
	}
	b, err := encodeIndented(v)
	if err != nil {
		return err
	}
	_, err = s.stdout.Write(b)
	return err
}
