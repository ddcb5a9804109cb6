package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// trailingArgs says what trailingFlags does with an argument it meets among
// the flags.
type trailingArgs int

const (
	// refuseArgs: every argument of the command came before its flags, so
	// one more is a usage error.
	refuseArgs trailingArgs = iota
	// collectArgs: arguments and flags may alternate; the arguments are
	// returned in order.
	collectArgs
)

// trailingFlags parses args, what follows a command's positional arguments,
// against the command's own flags. urfave/cli stops reading flags at the
// first argument, so guard migrate down 1 --dsn … and guard gen table
// t_ticket --counter seats would otherwise take their flags for arguments.
// What it parsed is validated as the prologue validates the flags before
// the arguments (checkParsed), and a usage error names the command's help
// as urfave/cli's own would. It returns the parsed flags and, with
// collectArgs, the arguments found among them.
func trailingFlags(c *cli.Context, args []string, among trailingArgs) (*flag.FlagSet, []string, error) {
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(set); err != nil {
			return nil, nil, err
		}
	}
	var positional []string
	for {
		if err := set.Parse(args); err != nil {
			return nil, nil, usageErr(c, usageText(err))
		}
		if set.NArg() == 0 {
			break
		}
		if among == refuseArgs {
			return nil, nil, usageErr(c, fmt.Sprintf("unexpected argument %q", set.Arg(0)))
		}
		positional = append(positional, set.Arg(0))
		args = set.Args()[1:]
	}
	if err := checkParsed(c, set); err != nil {
		return nil, nil, err
	}
	return set, positional, nil
}
