package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/prcomment"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:        "report",
		Usage:       "publish a report guard wrote: a pull request comment",
		Subcommands: []*cli.Command{reportCommentCommand()},
	}
}

func reportCommentCommand() *cli.Command {
	return &cli.Command{
		Name:      "comment",
		Usage:     "post a markdown report as the one guard comment of a GitHub pull request, or update it",
		ArgsUsage: " ",
		Description: `Posts the file (guard lint or guard audit --format markdown) as a comment on
the pull request, or edits the comment an earlier run posted: the comment
starts with a hidden line <!-- MARKER --> (--marker, default guard-report),
and every page of the pull request's comments is searched for it. A workflow
that reports twice (lint and audit) gives each its own --marker.

It reads what a GitHub Actions job provides: the token from GITHUB_TOKEN (or
GH_TOKEN; never from a flag, which would show in the process list), the
repository from GITHUB_REPOSITORY, the pull request from the event file
GITHUB_EVENT_PATH (pull_request, pull_request_target, or issue_comment on a
pull request) and the API from GITHUB_API_URL (default
https://api.github.com; GitHub Enterprise Server sets its own). --repo and
--pr name them instead. An event about no pull request (push, schedule)
posts nothing and exits 0 with a note on stderr.

The token needs permission pull-requests: write. A refusal of the API is exit
3 with its status and message; the token never appears in any output.

Examples:
   guard lint --format markdown . > guard.md
   GITHUB_TOKEN=… guard report comment --file guard.md
   guard audit --targets shards.txt --format markdown | guard report comment --file - --marker guard-audit
   guard report comment --file guard.md --repo owner/name --pr 42`,
		Flags: append(textOnlyFlags.flags(),
			&cli.StringFlag{Name: "file", Usage: "the markdown report to post, - for standard input", Required: true, TakesFile: true},
			&cli.StringFlag{Name: "marker", Value: prcomment.DefaultMarker, Usage: "name of the hidden line that marks the comment"},
			&cli.StringFlag{Name: "repo", Usage: "repository owner/name", DefaultText: "$GITHUB_REPOSITORY"},
			&cli.IntFlag{Name: "pr", Usage: "pull request number", DefaultText: "from $GITHUB_EVENT_PATH"},
		),
		Action: runReportComment,
	}
}

func runReportComment(c *cli.Context) error {
	if c.Args().Present() {
		return inputErrf("report comment takes no arguments (got %q)", c.Args().Slice())
	}
	body, err := readReportFile(c)
	if err != nil {
		return err
	}
	repo := c.String("repo")
	if repo == "" {
		repo = os.Getenv("GITHUB_REPOSITORY")
	}
	if repo == "" {
		return inputErrf("no repository: give --repo owner/name or set GITHUB_REPOSITORY")
	}
	number := c.Int("pr")
	if c.IsSet("pr") && number < 1 {
		return inputErrf("--pr %d: want a pull request number", number)
	}
	if !c.IsSet("pr") {
		event := os.Getenv("GITHUB_EVENT_PATH")
		if event == "" {
			return inputErrf("no pull request: give --pr N or set GITHUB_EVENT_PATH (a GitHub Actions job does)")
		}
		if number, err = prcomment.PullRequestNumber(event); err != nil {
			return inputErr(err)
		}
		if number == 0 {
			name := os.Getenv("GITHUB_EVENT_NAME")
			if name == "" {
				name = "this run's"
			}
			fmt.Fprintf(c.App.ErrWriter, "guard: note: the %s event is about no pull request: no comment posted\n", name)
			return nil
		}
	}
	token := os.Getenv("GITHUB_TOKEN")
	if token == "" {
		token = os.Getenv("GH_TOKEN")
	}
	if token == "" {
		return inputErrf("no token: set GITHUB_TOKEN (in a workflow, env: GITHUB_TOKEN: ${{ github.token }})")
	}
	client := &prcomment.Client{BaseURL: os.Getenv("GITHUB_API_URL"), Token: token, UserAgent: "guard/" + guardVersion()}
	out, err := client.Upsert(c.Context, repo, number, c.String("marker"), body)
	if err != nil {
		if errors.Is(err, prcomment.ErrTooLong) || errors.Is(err, prcomment.ErrBadMarker) || errors.Is(err, prcomment.ErrBadTarget) {
			return inputErr(err)
		}
		var ae *prcomment.APIError
		if errors.As(err, &ae) && (ae.Status == 401 || ae.Status == 403 || ae.Status == 404) {
			fmt.Fprintf(c.App.ErrWriter, "guard: note: the token needs permission pull-requests: write on %s; "+
				"a pull request from a fork gets a read-only token\n", repo)
		}
		return err
	}
	verb := "posted"
	if out.Updated {
		verb = "updated"
	}
	fmt.Fprintf(c.App.Writer, "%s comment %s\n", verb, out.HTMLURL)
	return nil
}

// readReportFile reads --file, - being standard input; an empty report is
// refused, since posting it would erase the last one.
func readReportFile(c *cli.Context) (string, error) {
	name := c.String("file")
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(c.App.Reader)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return "", inputErrf("read --file: %v", err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", inputErrf("--file %s is empty: nothing to post", name)
	}
	return string(b), nil
}
