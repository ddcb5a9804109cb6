package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/plan"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint/rules"
)

func planCommand() *cli.Command {
	return &cli.Command{
		Name:      "plan",
		Usage:     "write the golang-migrate files that add the missing guards",
		ArgsUsage: "[PATH...]",
		Description: `Compares the schema with the policy and writes one migration per missing
guard: NOT NULL for NULLable counters, the version column, CHECK (col >= 0) on
counters (or BEFORE INSERT/UPDATE triggers with --strategy trigger, and on
servers that do not enforce CHECK), UNIQUE indexes on business keys and policy
unique sets, and, live, a strict global sql_mode. Each file pair
NNNNNN_guard_<table>_<what>.up.sql / .down.sql holds one statement with an
explicit ALGORITHM and LOCK, numbered after the last migration of --dir and
--out.

Offline (default), the schema is replayed from --dir and the server is assumed
to be --flavor. Live (--dsn, or $GUARD_DSN when --dir is not given), the schema,
version, sql_mode, triggers and row counts come from the server; nothing is
changed there. Files already written by an earlier plan count as done, so
running plan twice writes nothing the second time.

The vocabulary (which columns are counters, states and business keys) is
inferred from the code below PATH... (default: [lint] paths) exactly as guard
lint infers it, unless [schema] infer = false: plan fills the GS003-GS006 gaps
guard lint reports, no more and no fewer.

--osc pt-osc marks the steps that copy the table (ADD CHECK, ALGORITHM=COPY)
with a "-- guard:osc pt-osc" line: guard migrate runs them through
pt-online-schema-change --alter ... --execute, which copies the rows in chunks
while writes continue; golang-migrate alone still runs the ALTER as written.

Examples:
   guard plan                                   plan from ./migrations into ./migrations
   guard plan --osc pt-osc                      ADD CHECK through pt-online-schema-change
   guard plan --dir examples/shop/migrations --dry-run
   guard plan --dir db/migrations --flavor mysql8 --strategy trigger
   guard plan --dsn 'mysql://dba:secret@db1:3306/shop' --out db/migrations
   guard plan --format json --dry-run > plan.json

Exit codes: 0 written or nothing to do, 2 usage, policy or input error,
3 database unreachable or unreadable.` + planVitessHelp,
		Flags: append(append(jsonReport.flags(),
			&cli.StringFlag{Name: "dir", Value: "migrations", Usage: "migrations folder the schema is replayed from (offline; default: --out when only --out is given)", TakesFile: true},
			&cli.StringFlag{Name: "dsn", Usage: "plan from a live database instead; default $" + target.EnvDSN + " unless --dir is given"},
			&cli.StringFlag{Name: "out", Usage: "folder the files are written to (default: --dir)", TakesFile: true},
			&cli.StringFlag{Name: "strategy", Value: plan.StrategyCheck, Usage: "how counters are kept non-negative: check or trigger"},
			&cli.StringFlag{Name: "flavor", Value: plan.FlavorMariaDB, Usage: "server family of an offline plan: mariadb or mysql8"},
			&cli.StringFlag{Name: "osc", Usage: "pt-osc: the steps that copy the table (ADD CHECK) run through pt-online-schema-change under guard migrate"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the plan without writing files"},
			connectTimeoutFlag(),
		), vitessFlags()...),
		Action: runPlan,
	}
}

// planInput is what a plan is computed from.
type planInput struct {
	schema *schema.Schema
	server schema.Server
	opts   plan.Options
	// live is set when the input was read from a server.
	live bool
	// db counts the rows of blocking steps, live only.
	db *sql.DB
}

func runPlan(c *cli.Context) error {
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	format := c.String("format")
	strategy, osc, err := planChoices(c)
	if err != nil {
		return err
	}
	if err := checkVitessChoices(c, strategy, osc); err != nil {
		return err
	}
	vs, err := readVSchema(c)
	if err != nil {
		return err
	}
	dsn := c.String("dsn")
	if dsn == "" && !c.IsSet("dir") {
		dsn = os.Getenv(target.EnvDSN)
	}
	dir, out := planDirs(c)
	stdout, stderr := c.App.Writer, c.App.ErrWriter
	var in *planInput
	if dsn != "" {
		if c.IsSet("flavor") {
			return inputErrf("--flavor is for offline plans: a live plan asks the server")
		}
		tg, red, err := oneTarget(c.String("dsn"), dsn)
		if err != nil {
			return inputErr(err)
		}
		if err := setConnectTimeout(c, tg); err != nil {
			return err
		}
		stdout, stderr = red.Writer(stdout), red.Writer(stderr)
		in, err = livePlanInput(c.Context, tg, stderr)
		if err != nil {
			return &exitError{code: exitRuntime, err: fmt.Errorf("%s: %s", tg.Name(), red.Redact(err.Error()))}
		}
		defer in.db.Close()
	} else {
		flavor := c.String("flavor")
		if c.Bool("vitess") {
			// --out holds the Vitess steps, never migrations to replay.
			dir, flavor, out = c.String("dir"), plan.FlavorMySQL8, vitessOut(c)
		}
		in, err = offlinePlanInput(dir, out, flavor, stderr)
		if err != nil {
			return err
		}
	}
	in.opts.Strategy = strategy
	if vs != nil {
		in.opts.Sharding = vs.Sharding()
	}
	if pol, err = inferForPlan(pol, in.schema, c.Args().Slice()); err != nil {
		return err
	}
	if c.Bool("vitess") {
		steps := plan.Plan(in.schema, pol, in.server, in.opts)
		if in.live {
			countPlanRows(c.Context, in.db, steps, stderr)
		}
		return writeVitessPlan(c, steps, vs, stdout, stderr)
	}

	steps := plan.HandOff(plan.Plan(in.schema, pol, in.server, in.opts), osc)
	if steps, err = plan.Unwritten(steps, dir, out); err != nil {
		return inputErr(err)
	}
	if in.live {
		countPlanRows(c.Context, in.db, steps, stderr)
	}
	next, width, err := plan.NextVersion(dir, out)
	if err != nil {
		return inputErr(err)
	}
	files := plan.Files(steps, next, width)
	var written []string
	if !c.Bool("dry-run") {
		if written, err = plan.WriteFilesAt(out, files); err != nil {
			return &exitError{code: exitRuntime, err: err}
		}
	}
	for _, st := range steps {
		if st.Guard == plan.GuardSQLMode && strings.HasPrefix(st.Up, "SET GLOBAL") {
			fmt.Fprintf(stderr, "guard: reminder: %s\n", st.Note)
		}
	}
	if format == "json" {
		return writePlanJSON(stdout, steps, files, out, written)
	}
	return writePlanText(stdout, steps, files, out, c.Bool("dry-run"))
}

// planChoices is --strategy and --osc, refused unless they name a way guard
// plan knows.
func planChoices(c *cli.Context) (strategy, osc string, err error) {
	strategy = c.String("strategy")
	if strategy != plan.StrategyCheck && strategy != plan.StrategyTrigger {
		return "", "", inputErrf("--strategy %q: want check or trigger", strategy)
	}
	osc = c.String("osc")
	if osc != "" && osc != plan.OSCPTOnlineSchemaChange {
		return "", "", inputErrf("--osc %q: want %s", osc, plan.OSCPTOnlineSchemaChange)
	}
	return strategy, osc, nil
}

// planDirs is --dir and --out, which default to each other: `guard plan
// --out migrations/` plans the folder it writes to.
func planDirs(c *cli.Context) (dir, out string) {
	dir, out = c.String("dir"), c.String("out")
	switch {
	case out == "":
		out = dir
	case !c.IsSet("dir"):
		dir = out
	}
	return dir, out
}

// countPlanRows replaces the estimated rows of the blocking steps by a
// count, within five minutes. The estimates stand in when the count fails:
// a slow count must not cost the plan.
func countPlanRows(ctx context.Context, db *sql.DB, steps []plan.Step, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	err := plan.CountRows(ctx, db, steps)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "guard: warning: %v; the rows shown are information_schema estimates\n", err)
	}
}

// inferForPlan learns the vocabulary from the code below paths (default: the
// policy's [lint] paths that exist) the way guard lint does, so that plan
// fills exactly the gaps lint reports. A policy with infer = false, or no
// code to read, plans with the policy alone.
func inferForPlan(pol *policy.Policy, s *schema.Schema, paths []string) (*policy.Policy, error) {
	if !pol.Infers() {
		return pol, nil
	}
	if len(paths) == 0 {
		for _, p := range pol.Lint.Paths {
			if _, err := os.Stat(p); err == nil {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			return pol, nil
		}
	}
	v, err := driver.Infer(driver.Config{Paths: paths, Policy: pol, Schema: s, Rules: rules.All(), Learn: rules.Learn})
	if err != nil {
		return nil, lintErr(err)
	}
	return v.Policy, nil
}

// offlinePlanInput replays the migrations of dir and out.
func offlinePlanInput(dir, out, flavor string, stderr io.Writer) (*planInput, error) {
	srv, ok := plan.OfflineServer(flavor)
	if !ok {
		return nil, inputErrf("--flavor %q: want mariadb or mysql8", flavor)
	}
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil, inputErrf("--dir %s: no such folder (name the migrations folder, or plan live with --dsn)", dir)
	}
	off, err := plan.LoadDirs(dir, out)
	if err != nil {
		return nil, inputErr(err)
	}
	// A statement replay could not apply leaves the schema short of it: the
	// plan may then ask for a guard that exists, or miss one.
	for _, e := range off.Errors {
		fmt.Fprintf(stderr, "guard: warning: %v\n", e)
	}
	return &planInput{
		schema: off.Schema,
		server: srv,
		opts:   plan.Options{Triggers: off.Triggers},
	}, nil
}

// livePlanInput reads the schema and the server of target.
func livePlanInput(ctx context.Context, tg *target.Target, stderr io.Writer) (*planInput, error) {
	db, err := tg.Connect(ctx, target.ConnectOptions{Log: stderr})
	if err != nil {
		return nil, err
	}
	readCtx, cancel := context.WithTimeout(ctx, target.IOTimeout)
	defer cancel()
	l, err := plan.ReadLive(readCtx, db, tg.Database())
	if err != nil {
		db.Close()
		return nil, err
	}
	for _, n := range l.Notes {
		fmt.Fprintf(stderr, "guard: warning: %s\n", n)
	}
	mode := l.GlobalSQLMode
	return &planInput{
		schema: l.Schema,
		server: l.Server,
		opts:   plan.Options{GlobalSQLMode: &mode, Triggers: l.Triggers, Rows: l.Rows},
		live:   true,
		db:     db,
	}, nil
}

// writePlanText prints the summary table, then what was written.
func writePlanText(w io.Writer, steps []plan.Step, files []plan.File, out string, dryRun bool) error {
	if len(steps) == 0 {
		_, err := fmt.Fprintln(w, "nothing to do: the schema has every guard the policy asks for")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tGUARD\tALGORITHM\tBLOCKS WRITES\tROWS\tSTATEMENT")
	for _, st := range steps {
		table, rows := st.Table, "-"
		if table == "" {
			table = "(server)"
		}
		if st.Rows >= 0 {
			rows = fmt.Sprint(st.Rows)
		}
		blocks := "no"
		switch {
		case st.BlocksWrites:
			blocks = "YES"
		case st.OSC != "":
			blocks = "no (" + st.OSC + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", table, st.Guard, st.Algorithm, blocks, rows, oneLine(st.Up))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for i, st := range steps {
		if st.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", strings.TrimSuffix(files[2*i].Name, ".up.sql"), st.Note)
		}
	}
	verb := "wrote"
	if dryRun {
		verb = "would write"
	}
	fmt.Fprintf(w, "\n%s %d migrations (%d files) to %s\n", verb, len(steps), len(files), out)
	for _, f := range files {
		fmt.Fprintf(w, "  %s\n", filepath.Join(out, f.Name))
	}
	return nil
}

// planJSON is the --format json document.
type planJSON struct {
	Tool    string     `json:"tool"`
	Version string     `json:"version"`
	Steps   []stepJSON `json:"steps"`
	// Written lists the files written; empty on a dry run.
	Written []string `json:"written"`
}

type stepJSON struct {
	plan.Step
	UpFile   string `json:"up_file"`
	DownFile string `json:"down_file"`
}

func writePlanJSON(w io.Writer, steps []plan.Step, files []plan.File, out string, written []string) error {
	doc := planJSON{Tool: "guard", Version: guardVersion(), Steps: []stepJSON{}, Written: []string{}}
	for i, st := range steps {
		doc.Steps = append(doc.Steps, stepJSON{Step: st, UpFile: filepath.Join(out, files[2*i].Name), DownFile: filepath.Join(out, files[2*i+1].Name)})
	}
	doc.Written = append(doc.Written, written...)
	b, err := encodeIndented(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// oneLine folds a statement onto one line for the summary table.
func oneLine(sql string) string {
	return strings.Join(strings.Fields(sql), " ")
}
