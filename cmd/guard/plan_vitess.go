package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/plan"
	"github.com/guard-sql/guard/internal/vitess"
)

// planVitessHelp is the part of guard plan --help on --vitess.
const planVitessHelp = `
--vitess writes the steps as Vitess online DDL instead of golang-migrate
files: one NNNNNN_guard_<table>_<what>.sql per step (the ALTER without
ALGORITHM and LOCK, which Vitess chooses itself) and apply_NNNNNN.sh, which
submits them in order with vtctldclient ApplySchema --ddl-strategy "vitess"
and waits for each to complete on every shard before the next. The files go
to --out (default: vitess beside --dir); steps already there are not
written again. --vschema names the keyspace's VSchema: GS005 then judges
which UNIQUE indexes hold per shard only, and the script's keyspace is the
VSchema's (or --keyspace; else $KEYSPACE when the script runs). Offline,
the server is MySQL 8 (Vitess runs on MySQL). Counters get CHECKs: Vitess
online DDL runs no CREATE TRIGGER; the strict sql_mode is left to each
shard's MySQL configuration.`

// vitessFlags are the flags of guard plan --vitess.
func vitessFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "vitess", Usage: "write the steps as vtctldclient ApplySchema --ddl-strategy vitess steps (online DDL) and a script that runs them in order"},
		vschemaFlag(),
		&cli.StringFlag{Name: "keyspace", Usage: "with --vitess: the keyspace the script applies the steps to (default: the --vschema's)"},
	}
}

// checkVitessChoices refuses what --vitess cannot write, and the flags of
// --vitess without it.
func checkVitessChoices(c *cli.Context, strategy, osc string) error {
	if !c.Bool("vitess") {
		if c.IsSet("keyspace") {
			return inputErrf("--keyspace is for --vitess")
		}
		return nil
	}
	switch {
	case strategy == plan.StrategyTrigger:
		return inputErrf("--strategy trigger: Vitess online DDL runs no CREATE TRIGGER; leave --strategy out (CHECK constraints)")
	case osc != "":
		return inputErrf("--osc %s: Vitess copies the tables itself (online DDL); leave --osc out with --vitess", osc)
	case c.IsSet("flavor") && c.String("flavor") != plan.FlavorMySQL8:
		return inputErrf("--flavor %s: Vitess runs on MySQL; leave --flavor out or give %s", c.String("flavor"), plan.FlavorMySQL8)
	}
	return nil
}

// vitessOut is where --vitess writes: --out, else a folder vitess beside
// the migrations folder.
func vitessOut(c *cli.Context) string {
	if out := c.String("out"); out != "" {
		return out
	}
	return filepath.Join(filepath.Dir(filepath.Clean(c.String("dir"))), "vitess")
}

// vitessKeyspace is the keyspace the script applies to: --keyspace, else
// the one keyspace of vs holding every table of steps; "" leaves it to the
// script's $KEYSPACE.
func vitessKeyspace(c *cli.Context, vs *vitess.VSchema, steps []plan.Step) string {
	if ks := c.String("keyspace"); ks != "" || vs == nil {
		return ks
	}
	name := ""
	for _, st := range steps {
		ks := vs.Keyspace(st.Table)
		if ks == nil || name != "" && ks.Name != name {
			return ""
		}
		name = ks.Name
	}
	return name
}

// writeVitessPlan turns the plan into Vitess steps and writes them, with
// the summary on w.
func writeVitessPlan(c *cli.Context, steps []plan.Step, vs *vitess.VSchema, w, stderr io.Writer) error {
	steps, server, err := plan.ForVitess(steps)
	if err != nil {
		return inputErr(err)
	}
	for _, st := range server {
		setting := strings.TrimPrefix(strings.TrimPrefix(st.Up, "SET PERSIST "), "SET GLOBAL ")
		fmt.Fprintf(stderr, "guard: note: %s (%s) is not in the script: ApplySchema runs DDL only; set %s in the configuration of each shard's MySQL\n",
			st.What, st.Rule, setting)
	}
	out := vitessOut(c)
	planned := len(steps)
	if steps, err = plan.UnwrittenVitess(steps, out); err != nil {
		return inputErr(err)
	}
	if planned > 0 && len(steps) == 0 && c.String("format") != "json" {
		_, err := fmt.Fprintf(w, "nothing new to write: the steps of every missing guard are in %s already\n", out)
		return err
	}
	next, err := plan.NextVitessNumber(out)
	if err != nil {
		return inputErr(err)
	}
	keyspace := vitessKeyspace(c, vs, steps)
	var files []plan.File
	if len(steps) > 0 {
		files = plan.VitessFiles(steps, next, keyspace)
	}
	var written []string
	if !c.Bool("dry-run") {
		if written, err = plan.WriteFilesAt(out, files); err != nil {
			return &exitError{code: exitRuntime, err: err}
		}
	}
	if c.String("format") == "json" {
		return writeVitessJSON(w, steps, files, out, keyspace, written)
	}
	return writeVitessText(w, steps, files, out, keyspace, c.Bool("dry-run"))
}

func writeVitessText(w io.Writer, steps []plan.Step, files []plan.File, out, keyspace string, dryRun bool) error {
	if len(steps) == 0 {
		_, err := fmt.Fprintln(w, "nothing to do: the schema has every guard the policy asks for")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tGUARD\tDDL STRATEGY\tBLOCKS WRITES\tROWS\tSTATEMENT")
	for _, st := range steps {
		rows := "-"
		if st.Rows >= 0 {
			rows = fmt.Sprint(st.Rows)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\tno (cut-over lock)\t%s\t%s\n", st.Table, st.Guard, plan.DDLStrategyVitess, rows, oneLine(st.Up))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for i, st := range steps {
		fmt.Fprintf(w, "%s: %s\n", strings.TrimSuffix(files[i].Name, ".sql"), st.Note)
	}
	verb := "wrote"
	if dryRun {
		verb = "would write"
	}
	script := filepath.Join(out, files[len(files)-1].Name)
	fmt.Fprintf(w, "\n%s %d Vitess online DDL steps and their script (%d files) to %s\n", verb, len(steps), len(files), out)
	for _, f := range files {
		fmt.Fprintf(w, "  %s\n", filepath.Join(out, f.Name))
	}
	env := "VTCTLD=vtctld-host:15999"
	if keyspace == "" {
		env += " KEYSPACE=<keyspace>"
	}
	fmt.Fprintf(w, "\nrun: %s sh %s\n", env, script)
	return nil
}

// vitessPlanJSON is the --format json document of guard plan --vitess.
type vitessPlanJSON struct {
	Tool        string           `json:"tool"`
	Version     string           `json:"version"`
	DDLStrategy string           `json:"ddl_strategy"`
	Keyspace    string           `json:"keyspace"`
	Steps       []vitessStepJSON `json:"steps"`
	Script      string           `json:"script"`
	// Written lists the files written; empty on a dry run.
	Written []string `json:"written"`
}

type vitessStepJSON struct {
	plan.Step
	SQLFile string `json:"sql_file"`
}

func writeVitessJSON(w io.Writer, steps []plan.Step, files []plan.File, out, keyspace string, written []string) error {
	doc := vitessPlanJSON{Tool: "guard", Version: guardVersion(), DDLStrategy: plan.DDLStrategyVitess, Keyspace: keyspace,
		Steps: []vitessStepJSON{}, Written: []string{}}
	for i, st := range steps {
		doc.Steps = append(doc.Steps, vitessStepJSON{Step: st, SQLFile: filepath.Join(out, files[i].Name)})
	}
	if len(files) > 0 {
		doc.Script = filepath.Join(out, files[len(files)-1].Name)
	}
	doc.Written = append(doc.Written, written...)
	b, err := encodeIndented(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
