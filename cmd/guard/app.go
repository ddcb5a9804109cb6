package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/driverlog"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/report"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// it comes from the module's build information.
var version = ""

func guardVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// run is guard's whole command line: it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	defer driverlog.Route(stderr)()
	app := newApp(stdout, stderr)
	err := app.RunContext(ctx, args)
	if err == nil {
		return exitClean
	}
	code := codeOf(err)
	var ee *exitError
	if !errors.As(err, &ee) || ee.err != nil {
		fmt.Fprintf(stderr, "guard: %v\n", err)
	}
	if code == exitRuntime && isUsage(err) {
		code = exitInput
	}
	return code
}

// isUsage recognises urfave/cli's own usage errors (unknown flag, missing value).
func isUsage(err error) bool {
	msg := err.Error()
	for _, s := range []string{"flag provided but not defined", "flag needs an argument", "invalid value", "Required flag", "No help topic"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:    "guard",
		Usage:   "keep MySQL and MariaDB data correct under concurrency",
		Version: guardVersion(),
		Description: `A Redis lock only reduces contention; correctness comes from the database:
a conditional UPDATE whose RowsAffected is checked, a version column for
compare-and-set, CHECK (qty >= 0), UNIQUE business keys and a strict sql_mode.
guard finds the writes and tables that rely on the lock alone.

Examples:
   guard init --schema db/schema.sql .       propose a policies.toml from how the code uses columns
   guard lint examples/shop                  lint migrations and the SQL in code, offline
   guard lint --format sarif . > guard.sarif GitHub code scanning
   guard rules GQ002                         why a rule exists and how to fix it

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage, config or input
error, 3 runtime failure, 4 dirty migration state.`,
		UsageText:      "guard COMMAND [flags] [args...]   (guard COMMAND --help for its flags and examples)",
		Writer:         stdout,
		ErrWriter:      stderr,
		ExitErrHandler: func(*cli.Context, error) {}, // run maps errors to exit codes; never os.Exit here
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageErr(c, usageText(err))
		},
		Action: unknownCommand,
		Commands: withPrologue([]*cli.Command{
			initCommand(),
			lintCommand(),
			auditCommand(),
			migrateCommand(),
			rulesCommand(),
			planCommand(),
			genCommand(),
			drillCommand(),
			reportCommand(),
			cacheCommand(),
		}),
		HideHelpCommand: true,
	}
}

// shared says which values of the flags every command accepts a command
// takes: the formats it writes (the first is the default) and whether it has
// findings, so that --fail-on decides its exit code.
type shared struct {
	formats  []string
	findings bool
}

// Shared flag sets of guard's commands.
var (
	reportFlags = shared{formats: report.Formats(), findings: true}
	jsonReport  = shared{formats: []string{"text", "json"}}
	// drillFlags and dryRunFlags are those of guard drill and of the
	// migrate subcommands that take --dry-run (up, down, goto): html is a
	// drill's report, or a dry run's.
	drillFlags    = shared{formats: []string{"text", "json", report.FormatHTML}, findings: true}
	dryRunFlags   = shared{formats: []string{"text", "json", report.FormatHTML}}
	textOnlyFlags = shared{formats: []string{"text"}}
)

// flags are the shared flags, each validating its value when given: a value
// a command does not support is exit 2 on every command, never ignored. A
// command with one format or without findings still accepts --format text
// and a valid --fail-on (scripts pass them to every command), but its help
// does not list them.
func (s shared) flags() []cli.Flag {
	formats := s.formats
	return []cli.Flag{
		&cli.StringFlag{
			Name: "config", Usage: "policy file (default: ./policies.toml, else built-in defaults)", TakesFile: true,
			Action: func(c *cli.Context, _ string) error {
				_, err := loadPolicy(c)
				return err
			},
		},
		&cli.StringFlag{
			Name: "format", Value: formats[0], Usage: "output format: " + strings.Join(formats, ", "), Hidden: len(formats) == 1,
			Action: func(_ *cli.Context, v string) error { return oneOf("--format", v, formats) },
		},
		&cli.StringFlag{
			Name: "fail-on", Value: "error", Usage: "lowest severity that makes the exit code 1: error, warning or never", Hidden: !s.findings,
			Action: func(_ *cli.Context, v string) error { return oneOf("--fail-on", v, failOnValues) },
		},
		&cli.BoolFlag{Name: "no-color", Usage: "never colour the text output"},
	}
}

// failOnValues are the values of --fail-on.
var failOnValues = []string{"error", "warning", "never"}

// oneOf is the input error of a flag whose value is not among allowed.
func oneOf(flag, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return inputErrf("%s %q: want %s", flag, v, orList(allowed))
}

// orList joins values as "a, b or c".
func orList(values []string) string {
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// withPrologue gives every command of the tree the one prologue guard's
// commands share, run before any action: a usage error (unknown flag or
// command, missing value, missing required flag) is one line naming the
// command's help, exit 2, instead of the whole help on stdout; then the
// shared flags (shared.flags) check their values. urfave/cli prints the help
// itself for a missing required flag, so those flags are checked here
// instead.
func withPrologue(cmds []*cli.Command) []*cli.Command {
	for _, cmd := range cmds {
		cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
			return usageErr(c, usageText(err))
		}
		var required []string
		for _, f := range cmd.Flags {
			if sf, ok := f.(*cli.StringFlag); ok && sf.Required {
				sf.Required = false
				sf.Usage += " (required)"
				required = append(required, sf.Name)
			}
		}
		if len(required) > 0 {
			before := cmd.Before
			cmd.Before = func(c *cli.Context) error {
				if c.Bool("help") {
					return nil
				}
				for _, name := range required {
					if !c.IsSet(name) {
						return usageErr(c, "missing --"+name)
					}
				}
				if before != nil {
					return before(c)
				}
				return nil
			}
		}
		if len(cmd.Subcommands) > 0 && cmd.Action == nil {
			cmd.Action = unknownCommand
		}
		if len(cmd.Subcommands) == 0 {
			pathsFirst(cmd)
		}
		withPrologue(cmd.Subcommands)
	}
	return cmds
}

// pathsFirst keeps urfave/cli from reading a leaf command's first argument
// as its help command: guard lint help lints the folder help when there is
// one (also after --); only a help or h that names no file shows the help.
func pathsFirst(cmd *cli.Command) {
	cmd.HideHelpCommand = true
	action := cmd.Action
	if action == nil {
		return
	}
	cmd.Action = func(c *cli.Context) error {
		if first := c.Args().First(); c.Args().Len() == 1 && (first == "help" || first == "h") {
			if _, err := os.Lstat(first); errors.Is(err, fs.ErrNotExist) {
				return cli.ShowSubcommandHelp(c)
			}
		}
		return action(c)
	}
}

// unknownCommand is the action of guard and of a command with subcommands
// when no subcommand of that name exists: a usage error, where urfave/cli
// would say "No help topic". Without a name it shows the help.
func unknownCommand(c *cli.Context) error {
	if !c.Args().Present() {
		if len(commandPath(c)) == 0 {
			return cli.ShowAppHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
	}
	return usageErr(c, fmt.Sprintf("unknown command %q", c.Args().First()))
}

// checkParsed validates the flags a command parsed itself (those after its
// arguments) as the prologue validates the ones urfave/cli parsed.
func checkParsed(c *cli.Context, set *flag.FlagSet) error {
	parsed := cli.NewContext(c.App, set, c)
	parsed.Command = c.Command
	var err error
	set.Visit(func(f *flag.Flag) {
		if af, ok := cliFlag(c.Command, f.Name).(cli.ActionableFlag); ok && err == nil {
			err = af.RunAction(parsed)
		}
	})
	return err
}

// cliFlag is cmd's flag named name, or nil.
func cliFlag(cmd *cli.Command, name string) cli.Flag {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// usageErr is a usage error of c's command, pointing at its help.
func usageErr(c *cli.Context, msg string) error {
	return inputErrf("%s; see %s", msg, strings.Join(append(append([]string{"guard"}, commandPath(c)...), "--help"), " "))
}

// commandPath is the names of c's command and its parents, outermost first.
func commandPath(c *cli.Context) []string {
	var names []string
	for _, x := range c.Lineage() {
		if x.Command != nil && x.Command.Name != "" && x.Command.Name != c.App.Name {
			names = append([]string{x.Command.Name}, names...)
		}
	}
	return names
}

// usageText rewrites the flag package's messages in guard's words and with
// the flags spelt as the help spells them (--name).
func usageText(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag " + dashes(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return "flag " + dashes(name) + " needs a value"
	}
	// invalid value "x" for flag -rows: …, invalid boolean value "x" for -no-color: …
	for _, sep := range []string{" for flag -", " for -"} {
		if i := strings.Index(msg, sep); i >= 0 {
			return msg[:i] + " for flag " + dashes(msg[i+len(sep)-1:])
		}
	}
	return msg
}

// dashes spells a flag name the way the help does: --name.
func dashes(name string) string { return "--" + strings.TrimLeft(name, "-") }

// loadPolicy reads --config, else ./policies.toml, else the built-in defaults.
func loadPolicy(c *cli.Context) (*policy.Policy, error) {
	file := c.String("config")
	if file == "" {
		if _, err := os.Stat("policies.toml"); err != nil {
			return policy.Default(), nil
		}
		file = "policies.toml"
	}
	p, err := policy.Load(file)
	if err != nil {
		return nil, inputErr(err)
	}
	return p, nil
}

// failRank returns the lowest severity rank that fails the run, from --fail-on
// (its flag validated the value).
func failRank(c *cli.Context) int {
	switch c.String("fail-on") {
	case "warning":
		return policy.SevWarning.Rank()
	case "never":
		return 99
	default:
		return policy.SevError.Rank()
	}
}

// useColor reports whether text output to w may be coloured.
func useColor(c *cli.Context, w io.Writer) bool {
	if c.Bool("no-color") || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
