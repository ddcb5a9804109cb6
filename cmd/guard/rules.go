package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rule catalogue, or explain one rule",
		ArgsUsage: "[CODE]",
		Description: `Without CODE: every rule with its code, name, kind, default severity and when
it fires. With CODE: the rationale and the fix.

Examples:
   guard rules
   guard rules GQ002
   guard rules --format json`,
		Flags:  jsonReport.flags(),
		Action: runRules,
	}
}

type ruleJSON struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Live     bool   `json:"live"`
	Summary  string `json:"summary"`
	Doc      string `json:"doc"`
	Fix      string `json:"fix"`
}

func runRules(c *cli.Context) error {
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	format := c.String("format")
	list := rules.All()
	if c.NArg() > 1 {
		return inputErrf("rules takes at most one CODE")
	}
	if code := strings.ToUpper(c.Args().First()); code != "" {
		r := rules.ByCode(code)
		if r == nil {
			return inputErrf("unknown rule code %q (run `guard rules` for the list)", c.Args().First())
		}
		list = []*lint.Rule{r}
	}
	w := c.App.Writer
	if format == "json" {
		out := make([]ruleJSON, 0, len(list))
		for _, r := range list {
			out = append(out, ruleJSON{r.Code, r.Name, r.Kind.String(), string(pol.Severity(r.Code, r.Severity)), r.Live, r.Summary, r.Doc, r.Fix})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(list) == 1 && c.NArg() == 1 {
		r := list[0]
		fmt.Fprintf(w, "%s %s (%s rule, default %s", r.Code, r.Name, r.Kind, pol.Severity(r.Code, r.Severity))
		if r.Live {
			fmt.Fprint(w, ", live only: guard audit")
			if r.Kind == lint.KindRedis {
				fmt.Fprint(w, " --redis")
			}
		}
		fmt.Fprintf(w, ")\n\nFires when: %s\n\nWhy:\n%s\n\nFix:\n%s\n", r.Summary, indent(r.Doc), indent(r.Fix))
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tNAME\tKIND\tSEVERITY\tFIRES WHEN")
	for _, r := range list {
		kind := r.Kind.String()
		if r.Live {
			kind += " (live)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, kind, pol.Severity(r.Code, r.Severity), r.Summary)
	}
	return tw.Flush()
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}
