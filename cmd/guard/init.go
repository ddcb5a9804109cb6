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
	"github.com/guard-sql/guard/internal/schema"
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
	defs := v.Definitions // a project's dump when it has no migrations: what the inference read
	if defs == nil {
		defs = v.Schema
	}
	p := &proposer{base: base, pol: v.Policy, inf: v.Policy.Inferred, sum: initSummary{Tables: len(defs.Tables)}}
	prop := &policy.Proposal{Base: base}
	for _, t := range defs.Sorted() {
		if base.Override(t.Name) != nil {
			continue // the base policy already decides this table
		}
		if tp := p.table(t); tp.Counters != nil || tp.States != nil || tp.Keys != nil {
			prop.Tables = append(prop.Tables, tp)
			p.sum.Entries++
		}
	}
	return prop, p.sum
}

// proposer is one run of propose: the base policy, the policy with the
// inferred vocabulary, and the counts of what was proposed so far.
type proposer struct {
	base, pol *policy.Policy
	inf       *policy.Inferred
	sum       initSummary
}

// proposedList is one kind of list of a table's proposal, and whether
// inference decided any of its columns: only then is the list proposed,
// as a list replaces the [schema] patterns for its table.
type proposedList struct {
	entries []policy.Entry
	decided bool
}

// add appends a column; decided says that inference, not a pattern,
// put it there.
func (l *proposedList) add(e policy.Entry, decided bool) {
	l.entries = append(l.entries, e)
	l.decided = l.decided || decided
}

// proposal is the list for the table's proposal, nil when nothing of its
// kind was decided by inference.
func (l *proposedList) proposal() *[]policy.Entry {
	if !l.decided {
		return nil
	}
	return &l.entries
}

// table proposes the counters, states and business keys of t.
func (p *proposer) table(t *schema.Table) policy.TableProposal {
	var counters, states, keys proposedList
	for _, c := range t.Columns {
		k := policy.Key(t.Name, c.Name)
		p.counter(&counters, t.Name, c.Name, k)
		p.state(&states, t.Name, c.Name, k)
		p.key(&keys, t.Name, c.Name, k)
	}
	return policy.TableProposal{Name: t.Name, Counters: counters.proposal(), States: states.proposal(), Keys: keys.proposal()}
}

// counter lists column col of table as a counter, or as a column the
// counter patterns match that is none (a threshold, a ledger's balance).
func (p *proposer) counter(l *proposedList, table, col, k string) {
	switch {
	case p.pol.IsCounter(table, col):
		p.sum.Counters++
		why, decided := byPattern("counter_columns", p.base.Schema.CounterColumns, col), false
		if e := p.inf.Counters[k]; e != nil && why == "" {
			why, decided = e.String(), true
			p.sum.InferredCounters++
		}
		l.add(policy.Entry{Column: col, Why: why}, decided)
	case policy.IsThreshold(col) && byPattern("counter_columns", p.base.Schema.CounterColumns, col) != "":
		p.sum.Thresholds++
		l.add(policy.Entry{Column: col, Why: "a threshold, never a counter", Dropped: true}, true)
	case policy.IsLedger(table) && byPattern("counter_columns", p.base.Schema.CounterColumns, col) != "":
		p.sum.Snapshots++
		l.add(policy.Entry{Column: col, Why: "the balance a movement left in a ledger table, written once with its row; the code never decrements it", Dropped: true}, true)
	}
}

// state lists column col of table as a state, or as a flag or free text
// the state patterns match.
func (p *proposer) state(l *proposedList, table, col, k string) {
	switch {
	case p.pol.IsState(table, col):
		p.sum.States++
		why, decided := byPattern("state_columns", p.base.Schema.StateColumns, col), false
		if e := p.inf.States[k]; e != nil && why == "" {
			why, decided = e.String(), true
			p.sum.InferredStates++
		}
		l.add(policy.Entry{Column: col, Why: why}, decided)
	case p.inf.Flags[k] != nil:
		p.sum.Flags++
		l.add(policy.Entry{Column: col, Why: p.inf.Flags[k].String(), Dropped: true}, true)
	}
}

// key lists column col of table as a business key, or as a reference to
// another table's key.
func (p *proposer) key(l *proposedList, table, col, k string) {
	switch {
	case p.pol.IsBusinessKey(table, col):
		p.sum.Keys++
		why, decided := byPattern("business_keys", p.base.Schema.BusinessKeys, col), false
		if e := p.inf.Keys[k]; e != nil {
			why, decided = e.String(), true
			p.sum.InferredKeys++
		}
		l.add(policy.Entry{Column: col, Why: why}, decided)
	case p.inf.References[k] != nil:
		p.sum.References++
		l.add(policy.Entry{Column: col, Why: p.inf.References[k].String(), Dropped: true}, true)
	}
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
