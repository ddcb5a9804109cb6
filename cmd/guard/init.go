package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "propose a policies.toml from the schema and the code (inferred vocabulary)",
		ArgsUsage: "[PATH...]",
		Description: `Reads the project below PATH... (default: [lint] paths) as guard lint does
and learns which columns are counters (the code decrements them), state
machines (an UPDATE conditions on them), on/off flags (state-named, only ever
toggled) and free text (state-named, but a long string: not states), business keys (key-named, on the table that owns them, not on the
tables that reference it). It writes a policies.toml holding the usual
defaults and one [[table]] entry per table inference decided, every column
with its evidence as a comment, for you to confirm. An existing file is kept
unless --force.

Examples:
   guard init                                   learn from ./migrations and .
   guard init --schema db/schema.sql src/       a schema dump and the code
   guard init --out guard/policies.toml --force
   guard lint --config policies.toml .          lint with what init wrote

Exit codes: 0 written, 2 usage or input error, or the file exists.`,
		Flags: append(jsonReport.flags(),
			&cli.StringFlag{Name: "schema", Usage: "schema source: a migrations folder, a dump file or a folder of dumps", TakesFile: true},
			&cli.StringFlag{Name: "out", Value: "policies.toml", Usage: "file to write", TakesFile: true},
			&cli.BoolFlag{Name: "force", Usage: "overwrite --out if it exists"},
		),
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	format := c.String("format")
	// The proposal starts from the built-in defaults, or from the policy
	// --config names: an existing policies.toml is what it may replace.
	base := policy.Default()
	if c.IsSet("config") {
		var err error
		if base, err = policy.Load(c.String("config")); err != nil {
			return inputErr(err)
		}
	}
	out := c.String("out")
	if _, err := os.Stat(out); err == nil && !c.Bool("force") {
		return inputErrf("%s exists: guard init does not overwrite it without --force", out)
	}
	infer := *base
	yes := true
	infer.Schema.Infer = &yes // init is the inference, whatever the base says
	v, err := driver.Infer(driver.Config{Paths: c.Args().Slice(), SchemaPath: c.String("schema"), Policy: &infer, Rules: rules.All(), Learn: rules.Learn})
	if err != nil {
		return lintErr(err)
	}
	prop, sum := propose(base, v)
	prop.Header = []string{
		fmt.Sprintf("guard policy proposed by `guard init` from %d tables and %d statements in %d files.", sum.Tables, v.Statements, v.Files),
		"Confirm each [[table]] entry: its comments give the evidence. A list in an entry replaces the",
		"[schema] patterns for that table; delete the entry to let the patterns and inference decide.",
		"The root policies.toml of guard's repository documents every key.",
	}
	text := prop.TOML()
	if _, err := policy.Parse(out, text); err != nil {
		return fmt.Errorf("guard init wrote a policy it cannot read back: %w", err)
	}
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return &exitError{code: exitRuntime, err: fmt.Errorf("write %s: %w", out, err)}
	}
	sum.File = out
	if format == "json" {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}
	return writeInitSummary(c.App.Writer, sum)
}

// initSummary counts what guard init proposed; its JSON form is --format json.
type initSummary struct {
	File             string `json:"file"`
	Tables           int    `json:"tables"`
	Entries          int    `json:"entries"`
	Counters         int    `json:"counters"`
	InferredCounters int    `json:"inferred_counters"`
	Thresholds       int    `json:"thresholds"`
	Snapshots        int    `json:"snapshots"`
	States           int    `json:"states"`
	InferredStates   int    `json:"inferred_states"`
	Flags            int    `json:"flags"`
	Keys             int    `json:"business_keys"`
	InferredKeys     int    `json:"inferred_business_keys"`
	References       int    `json:"references"`
}

func writeInitSummary(w io.Writer, s initSummary) error {
	_, err := fmt.Fprintf(w, "wrote %s: %d [[table]] entries for %d tables\n"+
		"  counters       %d (%d inferred from decrements; %d thresholds and %d ledger snapshots left out)\n"+
		"  states         %d (%d inferred from the code or the column definitions; %d on/off flags or free-text columns left out)\n"+
		"  business keys  %d (%d inferred; %d references to another table's key left out)\n"+
		"review the evidence of each entry, then: guard lint --config %s\n",
		s.File, s.Entries, s.Tables, s.Counters, s.InferredCounters, s.Thresholds, s.Snapshots,
		s.States, s.InferredStates, s.Flags, s.Keys, s.InferredKeys, s.References, s.File)
	return err
}

// propose turns the inferred vocabulary into [[table]] entries: a table gets
// a list wherever inference decided something for one of its columns, and
// the list then names every column of that kind with why.
func propose(base *policy.Policy, v *driver.Vocabulary) (*policy.Proposal, initSummary) {
	pol := v.Policy
	inf := pol.Inferred
	defs := v.Definitions // a project's dump when it has no migrations: what the inference read
	if defs == nil {
		defs = v.Schema
	}
	sum := initSummary{Tables: len(defs.Tables)}
	prop := &policy.Proposal{Base: base}
	for _, t := range defs.Sorted() {
		if base.Override(t.Name) != nil {
			continue // the base policy already decides this table
		}
		tp := policy.TableProposal{Name: t.Name}
		var counters, states, keys []policy.Entry
		var decidedCounters, decidedStates, decidedKeys bool
		for _, c := range t.Columns {
			k := policy.Key(t.Name, c.Name)
			switch {
			case pol.IsCounter(t.Name, c.Name):
				sum.Counters++
				why := byPattern("counter_columns", base.Schema.CounterColumns, c.Name)
				if e := inf.Counters[k]; e != nil && why == "" {
					why, decidedCounters = e.String(), true
					sum.InferredCounters++
				}
				counters = append(counters, policy.Entry{Column: c.Name, Why: why})
			case policy.IsThreshold(c.Name) && byPattern("counter_columns", base.Schema.CounterColumns, c.Name) != "":
				sum.Thresholds++
				decidedCounters = true
				counters = append(counters, policy.Entry{Column: c.Name, Why: "a threshold, never a counter", Dropped: true})
			case policy.IsLedger(t.Name) && byPattern("counter_columns", base.Schema.CounterColumns, c.Name) != "":
				sum.Snapshots++
				decidedCounters = true
				counters = append(counters, policy.Entry{Column: c.Name, Why: "the balance a movement left in a ledger table, written once with its row; the code never decrements it", Dropped: true})
			}
			switch {
			case pol.IsState(t.Name, c.Name):
				sum.States++
				why := byPattern("state_columns", base.Schema.StateColumns, c.Name)
				if e := inf.States[k]; e != nil && why == "" {
					why, decidedStates = e.String(), true
					sum.InferredStates++
				}
				states = append(states, policy.Entry{Column: c.Name, Why: why})
			case inf.Flags[k] != nil:
				sum.Flags++
				decidedStates = true
				states = append(states, policy.Entry{Column: c.Name, Why: inf.Flags[k].String(), Dropped: true})
			}
			switch {
			case pol.IsBusinessKey(t.Name, c.Name):
				sum.Keys++
				why := byPattern("business_keys", base.Schema.BusinessKeys, c.Name)
				if e := inf.Keys[k]; e != nil {
					why, decidedKeys = e.String(), true
					sum.InferredKeys++
				}
				keys = append(keys, policy.Entry{Column: c.Name, Why: why})
			case inf.References[k] != nil:
				sum.References++
				decidedKeys = true
				keys = append(keys, policy.Entry{Column: c.Name, Why: inf.References[k].String(), Dropped: true})
			}
		}
		if decidedCounters {
			tp.Counters = &counters
		}
		if decidedStates {
			tp.States = &states
		}
		if decidedKeys {
			tp.Keys = &keys
		}
		if tp.Counters != nil || tp.States != nil || tp.Keys != nil {
			prop.Tables = append(prop.Tables, tp)
			sum.Entries++
		}
	}
	return prop, sum
}

// byPattern names the pattern of a [schema] list that matches col, as the
// evidence of a column the policy decides by name; "" when none does.
func byPattern(key string, patterns []string, col string) string {
	for _, p := range patterns {
		if policy.Match(p, col) {
			if strings.EqualFold(p, col) {
				return "by name (" + key + ")"
			}
			return fmt.Sprintf("by name (%s %q)", key, p)
		}
	}
	return ""
}
