package main

import (
	"flag"
	"os"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/migrator"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/report"
)

// migrateArgs are a subcommand's arguments and flags. Flags may come before
// the subcommand (guard migrate --dsn … status) and follow the arguments
// (guard migrate down 1 --dsn …): the flag parser stops at the first
// argument, so what follows is parsed again here, and validated as the
// prologue validates the flags before it.
type migrateArgs struct {
	args []string
	// dsn is the one DSN of --dsn; dsns every --dsn given, in order.
	dsn, dir      string
	dsns          []string
	targets       string
	parallel      int
	onError       string
	format        string
	skipPreflight bool
	lockTimeout   time.Duration
	ddlLock       time.Duration
	// connectTimeout is --connect-timeout, set on every target.
	connectTimeout time.Duration
	// dryRun prints what the run would do and applies nothing; allowBlocking
	// lets statements that block writes on big tables run.
	dryRun, allowBlocking bool
	// config is --config, the policy file; maxRows its [migrate]
	// max_blocking_rows, read for the subcommands that run migrations.
	config  string
	maxRows int64
	// fromEnv tells that the DSN came from GUARD_DSN, not --dsn.
	fromEnv bool
}

// parseMigrateArgs reads the n arguments of c's subcommand and the flags
// given before and after them, and checks the values together.
func parseMigrateArgs(c *cli.Context, n int) (*migrateArgs, error) {
	all := c.Args().Slice()
	if len(all) < n {
		return nil, usageErr(c, "missing argument "+c.Command.ArgsUsage)
	}
	for _, name := range applyOnlyFlags {
		if givenIn(c, name).IsSet(name) && !hasFlag(c.Command, name) {
			return nil, usageErr(c, "--"+name+": migrate "+c.Command.Name+" applies nothing")
		}
	}
	a := &migrateArgs{
		args:          all[:n],
		dir:           givenIn(c, "dir").String("dir"),
		targets:       givenIn(c, "targets").String("targets"),
		parallel:      givenIn(c, "parallel").Int("parallel"),
		onError:       givenIn(c, "on-error").String("on-error"),
		format:        givenIn(c, "format").String("format"),
		skipPreflight: givenIn(c, "skip-preflight").Bool("skip-preflight"),
		lockTimeout:   givenIn(c, "lock-timeout").Duration("lock-timeout"),
		ddlLock:       givenIn(c, "ddl-lock-timeout").Duration("ddl-lock-timeout"),
		dryRun:        givenIn(c, "dry-run").Bool("dry-run"),
		allowBlocking: givenIn(c, "allow-blocking").Bool("allow-blocking"),
		config:        givenIn(c, "config").String("config"),
	}
	a.connectTimeout = givenIn(c, "connect-timeout").Duration("connect-timeout")
	if rest := all[n:]; len(rest) > 0 {
		set, _, err := trailingFlags(c, rest, refuseArgs)
		if err != nil {
			return nil, err
		}
		if err := a.setTrailing(set); err != nil {
			return nil, inputErrf("migrate %s: %v", c.Command.Name, err)
		}
	}
	// The trailing --dsn were parsed into the subcommand's own list.
	a.dsns = everyDSN(c)
	if len(a.dsns) == 1 {
		a.dsn = a.dsns[0]
	}
	if err := a.check(c); err != nil {
		return nil, err
	}
	if hasFlag(c.Command, "allow-blocking") {
		rows, err := a.maxBlockingRows()
		if err != nil {
			return nil, err
		}
		a.maxRows = rows
	}
	return a, nil
}

// givenIn is the innermost of c (the subcommand) and its parents (guard
// migrate) that was given the flag name, else c: a flag may come before
// the subcommand, and the subcommand's own wins.
func givenIn(c *cli.Context, name string) *cli.Context {
	for _, x := range c.Lineage() {
		if x.Command != nil && x.IsSet(name) {
			return x
		}
	}
	return c
}

// setTrailing sets the values of the flags given after the arguments,
// which win over those given before.
func (a *migrateArgs) setTrailing(set *flag.FlagSet) error {
	var err error
	set.Visit(func(f *flag.Flag) {
		v := f.Value.String()
		switch f.Name {
		case "targets":
			a.targets = v
		case "parallel":
			a.parallel, err = strconv.Atoi(v)
		case "on-error":
			a.onError = v
		case "dir":
			a.dir = v
		case "format":
			a.format = v
		case "skip-preflight":
			a.skipPreflight = v == "true"
		case "lock-timeout":
			a.lockTimeout, err = time.ParseDuration(v)
		case "ddl-lock-timeout":
			a.ddlLock, err = time.ParseDuration(v)
		case "connect-timeout":
			a.connectTimeout, err = time.ParseDuration(v)
		case "dry-run":
			a.dryRun = v == "true"
		case "allow-blocking":
			a.allowBlocking = v == "true"
		case "config":
			a.config = v
		}
	})
	return err
}

// everyDSN is every --dsn, in order: those before the subcommand, then the
// subcommand's own; a list reached from two contexts is counted once.
func everyDSN(c *cli.Context) []string {
	var dsns []string
	seen := map[*dsnList]bool{}
	for i := len(c.Lineage()) - 1; i >= 0; i-- {
		if x := c.Lineage()[i]; x.Command != nil {
			if l, ok := x.Generic("dsn").(*dsnList); ok && !seen[l] {
				seen[l] = true
				dsns = append(dsns, l.dsns...)
			}
		}
	}
	return dsns
}

// check refuses values that no run could use, and a fleet given to a
// subcommand that works on one database.
func (a *migrateArgs) check(c *cli.Context) error {
	if a.parallel < 1 {
		return inputErrf("--parallel %d: want 1 or more", a.parallel)
	}
	if a.onError != onErrorStop && a.onError != onErrorContinue {
		return inputErrf("--on-error %q: want %s or %s", a.onError, onErrorStop, onErrorContinue)
	}
	if a.format == report.FormatHTML && !a.dryRun {
		return usageErr(c, "--format html is the report of a dry run: add --dry-run")
	}
	if a.fleet() && !fleetCommands[c.Command.Name] {
		return usageErr(c, "migrate "+c.Command.Name+" works on one database: give one --dsn, not a fleet")
	}
	if a.lockTimeout <= 0 {
		return inputErrf("--lock-timeout %s: want a positive duration", a.lockTimeout)
	}
	if a.ddlLock < 0 {
		return inputErrf("--ddl-lock-timeout %s: want a duration, 0 for the server's own", a.ddlLock)
	}
	return checkConnectTimeout(a.connectTimeout)
}

// applyOnlyFlags are the flags of the subcommands that run migrations
// only: given to another, they are a usage error, not ignored.
var applyOnlyFlags = []string{"skip-preflight", "on-error", "dry-run", "allow-blocking"}

// options are the migrator's options of the run.
func (a *migrateArgs) options() migrator.Options {
	return migrator.Options{Dir: a.dir, SkipPreflight: a.skipPreflight, LockTimeout: a.lockTimeout, DDLLockTimeout: ddlLockOption(a.ddlLock),
		MaxBlockingRows: a.maxRows, AllowBlocking: a.allowBlocking}
}

// maxBlockingRows is [migrate] max_blocking_rows of --config, else of
// ./policies.toml, else the default.
func (a *migrateArgs) maxBlockingRows() (int64, error) {
	file := a.config
	if file == "" {
		if _, err := os.Stat("policies.toml"); err != nil {
			return policy.DefaultMaxBlockingRows, nil
		}
		file = "policies.toml"
	}
	p, err := policy.Load(file)
	if err != nil {
		return 0, inputErr(err)
	}
	return p.Migrate.MaxBlockingRows, nil
}

// hasFlag reports whether cmd has a flag named name.
func hasFlag(cmd *cli.Command, name string) bool { return cliFlag(cmd, name) != nil }
