package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/gctune"
	"github.com/guard-sql/guard/internal/report"
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
folder of dumps (its .sql files, in name order). A dump's INSERTs (and the
DISABLE KEYS / ENABLE KEYS around them), session lines, views and triggers
are skipped, not reported; its schema findings are reported even when it lies
outside the paths, unless every path is a file (files alone, as a pre-commit
hook passes them, report on those files only); a schema that holds no table
is a warning on stderr. Paths in findings are relative to the current
directory.

Examples:
   guard lint examples/shop
   guard lint --schema db/schema.sql internal/ src/main/resources/mappers
   guard lint --format json --fail-on warning . > findings.json
   guard lint --format sarif . > guard.sarif      # GitHub code scanning
   guard lint --format github .                   # annotations in GitHub Actions
   guard lint --format gitlab . > gl-code-quality.json  # GitLab Code Quality
   guard lint --format markdown . > guard.md      # a pull request comment (guard report comment)
   guard lint --format html . > guard.html        # one self-contained page to hand around

Adopting guard on a project that already has findings:
   guard lint --write-baseline guard-baseline.json .   # record today's findings, exit 0
   guard lint --baseline guard-baseline.json .         # report only the new ones

A baseline matches a finding by code, file and a fingerprint of its
statement as the parser normalises it (or of its table and column), not by
line: moving code or inserting lines elsewhere does not bring it back, a
changed statement is new. Its entries name files relative to the baseline's
folder. guard prints on stderr how many findings it hid and which entries no
longer occur.

Reporting only what a change touched:
   guard lint --new-from-rev origin/main .

--new-from-rev REV keeps the findings whose statement lines meet lines that
changed since the commit REV (git diff of the work tree, staged or not,
renames followed; files git does not track and does not ignore are wholly
new); schema findings only for the tables whose migrations' DDL changed.
With --baseline, the baseline applies first.

Runs people repeat:
   guard lint .                                  # the second run reads back what did not change
   guard lint --cache-dir .guard-cache .         # a folder a CI job saves and restores
   guard lint --no-cache .                       # judge every file again

guard lint keeps what it found in a cache (default $XDG_CACHE_HOME/guard, else
$HOME/.cache/guard), keyed by guard's build, the policy, the schema (every
migration and --schema file, by content), the rules and each file's content;
the host code (Go, Java, mapper XML), whose files read one another's
entities, mappers and models, is kept as one, under the vocabulary inferred
from every file. What did not change is read back instead of parsed and
judged again; the report and the exit code are the same as with --no-cache.
A cache folder that cannot be written is a warning, never a failure; the
cache keeps at most --cache-max-size, the entries used longest ago removed
first (guard cache clean empties it).`,
		Flags: append(append(reportFlags.flags(), cacheFlags()...),
			&cli.StringFlag{Name: "schema", Usage: "schema source: a migrations folder, one dump file (mysqldump, SHOW CREATE TABLE export) or a folder of dumps", TakesFile: true},
			&cli.StringFlag{Name: "baseline", Usage: "hide the findings recorded in this baseline file", TakesFile: true},
			&cli.StringFlag{Name: "new-from-rev", Usage: "report only the findings on lines changed since this git revision"},
			&cli.StringFlag{Name: "write-baseline", Usage: "record the findings in this baseline file instead of reporting them, and exit 0", TakesFile: true},
			vschemaFlag(),
		),
		Action: runLint,
	}
}

func runLint(c *cli.Context) error {
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	format, rank := c.String("format"), failRank(c)
	cfg := driver.Config{
		Paths:      c.Args().Slice(),
		SchemaPath: c.String("schema"),
		Policy:     pol,
		Rules:      rules.All(),
		Learn:      rules.Learn,
	}
	write := c.String("write-baseline")
	if write != "" && c.IsSet("baseline") {
		return inputErrf("--write-baseline records every finding: it does not go with --baseline")
	}
	if write != "" && c.IsSet("new-from-rev") {
		return inputErrf("--write-baseline records every finding: it does not go with --new-from-rev")
	}
	if cfg.Baseline, err = readBaseline(c); err != nil {
		return err
	}
	if cfg.Changes, err = changesSince(c); err != nil {
		return err
	}
	if cfg.Sharding, err = sharding(c); err != nil {
		return err
	}
	cfg.Cache = openCache(c)
	defer cfg.Cache.Close() // after the report: the run's result is stored while it is written
	color := format == "text" && useColor(c, c.App.Writer)
	var kept *printed
	if cfg.Cache != nil && write == "" {
		kept = newPrinted(c, cfg.Cache, format, color)
		cfg.Output = kept
	}
	endGC := gctune.Lint.Apply()
	res, err := driver.Run(cfg)
	endGC()
	if errors.Is(err, driver.ErrServed) {
		if kept.err != nil {
			return fmt.Errorf("write report: %w", kept.err)
		}
		return exitFor(kept.worst, rank)
	}
	if err != nil {
		return lintErr(err)
	}
	errOut := kept.notesTo(c.App.ErrWriter)
	if schemaPath := c.String("schema"); schemaPath != "" && res.Summary.Tables == 0 {
		// An empty schema is not an error (a dump of grants and databases is
		// a valid file), but it silences every schema rule and leaves the
		// query rules without columns: the user should know.
		fmt.Fprintf(errOut, "guard: warning: --schema %s holds no table (no CREATE TABLE replayed): "+
			"no schema rule had anything to check, and the query rules ran without the schema\n", schemaPath)
	}
	if n := len(res.Templates); n > 0 {
		fmt.Fprintf(errOut, "guard: note: %d file(s) left out, code generator templates by their path (%s%s)\n",
			n, res.Templates[0], map[bool]string{true: ", …", false: ""}[n > 1])
	}
	if n := len(res.Flyway); n > 0 {
		fmt.Fprintf(errOut, "guard: note: %d Flyway migration(s) left out of the query rules: they run once, at deploy (%s%s); "+
			"give their folder as --schema to build the schema from them\n",
			n, res.Flyway[0], map[bool]string{true: ", …", false: ""}[n > 1])
	}
	if n := len(res.OtherEngines); n > 0 {
		fmt.Fprintf(errOut, "guard: note: %d file(s) left out, written for another database engine by their path (%s%s)\n",
			n, res.OtherEngines[0], map[bool]string{true: ", …", false: ""}[n > 1])
	}
	if write != "" {
		return writeBaseline(c, write, res.Findings)
	}
	noteBaseline(c, res.Baseline)
	worst := -1
	for _, f := range res.Findings {
		worst = max(worst, f.Severity.Rank())
	}
	err = report.Write(kept.reportTo(c.App.Writer, worst), format, res, report.Options{
		Version: guardVersion(),
		Color:   color,
		Rules:   ruleInfos(),
	})
	kept.done(err)
	if err != nil {
		return err
	}
	return exitFor(worst, rank)
}

// exitFor is guard lint's exit when the worst of its findings has rank
// worst (-1 for none) and --fail-on asks for rank.
func exitFor(worst, rank int) error {
	if worst >= 0 && worst >= rank {
		return &exitError{code: exitFindings}
	}
	return nil
}

// ruleInfos describes the registry for the report formats.
func ruleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, r := range rules.All() {
		out = append(out, report.RuleInfo{Code: r.Code, Name: r.Name, Summary: r.Summary, Doc: r.Doc, Fix: r.Fix, Severity: r.Severity, PerServer: r.PerServer})
	}
	return out
}

// lintErr marks a driver.InputError (a missing path, an unreadable file) as
// bad input, exit 2; any other error of a run is a runtime failure.
func lintErr(err error) error {
	var ie *driver.InputError
	if errors.As(err, &ie) {
		return inputErr(err)
	}
	return err
}
