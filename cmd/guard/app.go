package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return inputErr(err)
		},
		Commands: []*cli.Command{
			initCommand(),
			lintCommand(),
			auditCommand(),
			migrateCommand(),
			rulesCommand(),
			planCommand(),
			genCommand(),
			drillCommand(),
		},
		HideHelpCommand: true,
	}
}

// commonFlags are accepted by every command after its name.
func commonFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "policy file (default: ./policies.toml, else built-in defaults)"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: " + strings.Join(report.Formats(), ", ")},
		&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "lowest severity that makes the exit code 1: error, warning or never"},
		&cli.BoolFlag{Name: "no-color", Usage: "never colour the text output"},
	}
}

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

// failRank returns the lowest severity rank that fails the run, from --fail-on.
func failRank(c *cli.Context) (int, error) {
	switch v := c.String("fail-on"); v {
	case "error":
		return policy.SevError.Rank(), nil
	case "warning":
		return policy.SevWarning.Rank(), nil
	case "never":
		return 99, nil
	default:
		return 0, inputErrf("--fail-on %q: want error, warning or never", v)
	}
}

// checkFormat validates --format against the formats a command supports.
func checkFormat(c *cli.Context, allowed ...string) (string, error) {
	f := c.String("format")
	for _, a := range allowed {
		if f == a {
			return f, nil
		}
	}
	return "", inputErrf("--format %q: want one of %s", f, strings.Join(allowed, ", "))
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
