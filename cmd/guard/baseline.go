package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/lint"
)

// readBaseline reads --baseline, if given; a file that cannot be read is
// bad input, exit 2.
func readBaseline(c *cli.Context) (*lint.Baseline, error) {
	path := c.String("baseline")
	if path == "" {
		return nil, nil
	}
	b, err := lint.ReadBaseline(path)
	if err != nil {
		return nil, inputErr(err)
	}
	return b, nil
}

// writeBaseline records findings in path and says so on stderr: recording
// today's findings is not a failure.
func writeBaseline(c *cli.Context, path string, findings []lint.Finding) error {
	if err := lint.WriteBaseline(path, findings); err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "guard: baseline %s records %d finding(s)\n", path, len(findings))
	return nil
}

// noteBaseline says on stderr what the baseline hid and lists its entries
// that no longer occur, so that the file shrinks as the debt is paid.
func noteBaseline(c *cli.Context, o *lint.BaselineOutcome) {
	if o == nil {
		return
	}
	path := c.String("baseline")
	fmt.Fprintf(c.App.ErrWriter, "guard: baseline %s hid %d finding(s)\n", path, o.Hidden)
	if len(o.Stale) == 0 {
		return
	}
	fmt.Fprintf(c.App.ErrWriter, "guard: %d baseline entr%s no longer occur; drop them with --write-baseline %s:\n",
		len(o.Stale), map[bool]string{true: "y", false: "ies"}[len(o.Stale) == 1], path)
	for _, e := range o.Stale {
		place := e.File
		if place == "" {
			place = "(live)"
		} else if e.Line > 0 {
			place = fmt.Sprintf("%s:%d", e.File, e.Line)
		}
		count := ""
		if e.Count > 1 {
			count = fmt.Sprintf(" (%d×)", e.Count)
		}
		fmt.Fprintf(c.App.ErrWriter, "   %s: %s%s %s\n", place, e.Code, count, e.Message)
	}
}
