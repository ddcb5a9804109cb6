package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/gitdiff"
)

// changesSince reads the lines changed since --new-from-rev, if given, and
// how to list what a migrations folder held at the revision (GM008). No
// git, no work tree or an unknown revision is bad input, exit 2: a check
// meant to see a change must not pass by seeing nothing.
func changesSince(c *cli.Context) (*driver.Changes, error) {
	if !c.IsSet("new-from-rev") {
		return nil, nil
	}
	rev := c.String("new-from-rev")
	files, err := gitdiff.Changed(c.Context, ".", rev)
	switch {
	case errors.Is(err, gitdiff.ErrNoGit), errors.Is(err, gitdiff.ErrNotWorkTree), errors.Is(err, gitdiff.ErrUnknownRevision):
		return nil, inputErrf("--new-from-rev %s: %w", rev, err)
	case err != nil:
		return nil, fmt.Errorf("--new-from-rev %s: %w", rev, err)
	}
	fmt.Fprintf(c.App.ErrWriter, "guard: --new-from-rev %s: reporting the findings on the lines of %d changed file(s)\n", rev, len(files))
	filesAt := func(dir string) ([]string, error) { return gitdiff.FilesAt(c.Context, dir, rev) }
	return driver.NewChanges(files).Since(rev, filesAt), nil
}
