package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"
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
	// fromEnv tells that the DSN came from GUARD_DSN, not --dsn.
	fromEnv bool
}

func parseMigrateArgs(c *cli.Context, n int) (*migrateArgs, error) {
	all := c.Args().Slice()
	if len(all) < n {
		return nil, usageErr(c, "missing argument "+c.Command.ArgsUsage)
	}
	// from is the innermost of the subcommand and guard migrate that was
	// given the flag.
	from := func(name string) *cli.Context {
		for _, x := range c.Lineage() {
			if x.Command != nil && x.IsSet(name) {
				return x
			}
		}
		return c
	}
	for _, name := range []string{"skip-preflight", "on-error"} {
		if from(name).IsSet(name) && !hasFlag(c.Command, name) {
			return nil, usageErr(c, "--"+name+": migrate "+c.Command.Name+" applies nothing")
		}
	}
	a := &migrateArgs{
		args:          all[:n],
		dir:           from("dir").String("dir"),
		targets:       from("targets").String("targets"),
		parallel:      from("parallel").Int("parallel"),
		onError:       from("on-error").String("on-error"),
		format:        from("format").String("format"),
		skipPreflight: from("skip-preflight").Bool("skip-preflight"),
		lockTimeout:   from("lock-timeout").Duration("lock-timeout"),
		ddlLock:       from("ddl-lock-timeout").Duration("ddl-lock-timeout"),
	}
	if rest := all[n:]; len(rest) > 0 {
		fs := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, f := range c.Command.Flags {
			if err := f.Apply(fs); err != nil {
				return nil, err
			}
		}
		if err := fs.Parse(rest); err != nil {
			return nil, usageErr(c, usageText(err))
		}
		if fs.NArg() > 0 {
			return nil, usageErr(c, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
		}
		if err := checkParsed(c, fs); err != nil {
			return nil, err
		}
		var err error
		fs.Visit(func(f *flag.Flag) {
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
			}
		})
		if err != nil {
			return nil, inputErrf("migrate %s: %v", c.Command.Name, err)
		}
	}
	// Every --dsn: those before the subcommand, then the subcommand's own
	// (the trailing ones were parsed into the same list).
	seen := map[*dsnList]bool{}
	for i := len(c.Lineage()) - 1; i >= 0; i-- {
		if x := c.Lineage()[i]; x.Command != nil {
			if l, ok := x.Generic("dsn").(*dsnList); ok && !seen[l] {
				seen[l] = true
				a.dsns = append(a.dsns, l.dsns...)
			}
		}
	}
	if len(a.dsns) == 1 {
		a.dsn = a.dsns[0]
	}
	if a.parallel < 1 {
		return nil, inputErrf("--parallel %d: want 1 or more", a.parallel)
	}
	if a.onError != onErrorStop && a.onError != onErrorContinue {
		return nil, inputErrf("--on-error %q: want %s or %s", a.onError, onErrorStop, onErrorContinue)
	}
	if a.fleet() && !fleetCommands[c.Command.Name] {
		return nil, usageErr(c, "migrate "+c.Command.Name+" works on one database: give one --dsn, not a fleet")
	}
	if a.lockTimeout <= 0 {
		return nil, inputErrf("--lock-timeout %s: want a positive duration", a.lockTimeout)
	}
	if a.ddlLock < 0 {
		return nil, inputErrf("--ddl-lock-timeout %s: want a duration, 0 for the server's own", a.ddlLock)
	}
	return a, nil
}

// hasFlag reports whether cmd has a flag named name.
func hasFlag(cmd *cli.Command, name string) bool { return cliFlag(cmd, name) != nil }
