package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

func lintCommand() *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "lint migrations and the SQL inside code, offline (no database)",
		ArgsUsage: "[PATH...]",
		Description: `Walks the paths (default: [lint] paths of policies.toml), following symbolic
links. Every folder holding golang-migrate files (NNN_title.up.sql) is replayed
in version order to build the schema; .down.sql files are skipped; every other
.sql, .go, .java and MyBatis .xml file is a query source.

--schema names the schema instead: a migrations folder, one dump file, or a
folder of dumps (its .sql files, in name order). A dump's INSERTs, session
lines, views and triggers are skipped, not reported; its schema findings are
reported even when it lies outside the paths. Paths in findings are relative
to the current directory.

Examples:
   guard lint examples/shop
   guard lint --schema db/schema.sql internal/ src/main/resources/mappers
   guard lint --format json --fail-on warning . > findings.json
   guard lint --format sarif . > guard.sarif      # GitHub code scanning
   guard lint --format github .                   # annotations in GitHub Actions`,
		Flags: append(commonFlags(),
			&cli.StringFlag{Name: "schema", Usage: "schema source: a migrations folder, one dump file (mysqldump, SHOW CREATE TABLE export) or a folder of dumps", TakesFile: true},
		),
		Action: runLint,
	}
}

func runLint(c *cli.Context) error {
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	format, err := checkFormat(c, report.Formats()...)
	if err != nil {
		return err
	}
	rank, err := failRank(c)
	if err != nil {
		return err
	}
	res, err := lint.Run(lint.Config{
		Paths:      c.Args().Slice(),
		SchemaPath: c.String("schema"),
		Policy:     pol,
		Rules:      rules.All(),
		Learn:      rules.Learn,
	})
	if err != nil {
		var ie *lint.InputError
		if errors.As(err, &ie) {
			return inputErr(err)
		}
		return err
	}
	if err := report.Write(c.App.Writer, format, res, report.Options{
		Version: guardVersion(),
		Color:   format == "text" && useColor(c, c.App.Writer),
		Rules:   ruleInfos(),
	}); err != nil {
		return err
	}
	for _, f := range res.Findings {
		if f.Severity.Rank() >= rank {
			return &exitError{code: exitFindings}
		}
	}
	return nil
}

// ruleInfos describes the registry for the report formats.
func ruleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, r := range rules.All() {
		out = append(out, report.RuleInfo{Code: r.Code, Name: r.Name, Summary: r.Summary, Doc: r.Doc, Fix: r.Fix, Severity: r.Severity})
	}
	return out
}
