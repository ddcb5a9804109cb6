package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/migrator"
	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/internal/schema"
)

// dryRunJSON is the json report of one target's dry run.
type dryRunJSON struct {
	Target string `json:"target"`
	*migrator.DryRun
	// Refusals are why the run would not start, with the exit code it
	// would end with.
	Refusals []refusalJSON `json:"refusals"`
	// Error is why the target could not be described at all.
	Error    *migrateErrorJSON `json:"error"`
	ExitCode int               `json:"exit_code"`
}

type refusalJSON struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// runDryRun prints what up, down or goto would do on the target or fleet,
// applying and writing nothing. The exit code is the one the run would
// end with before its first step: 0 when it would start, 3 when it would
// be refused (preflight, max_blocking_rows, pt-osc), 2 for an input error
// (an out-of-order file, one that does not parse), 4 when dirty.
func runDryRun(c *cli.Context, a *migrateArgs, op migrator.Op) error {
	var docs []dryRunJSON
	var w *fleetRun
	if a.fleet() {
		f, err := openFleet(c, a)
		if err != nil {
			return err
		}
		w = f
		for _, r := range migrator.DryRunFleet(c.Context, f.fleet, op, a.options(), a.parallel) {
			docs = append(docs, dryRunDoc(r.Target, r.DryRun, r.Err))
		}
	} else {
		s, err := openSession(c, a)
		if err != nil {
			return err
		}
		defer s.close()
		w = &fleetRun{stdout: s.stdout, stderr: s.stderr}
		d, err := s.m.DryRun(c.Context, op)
		docs = append(docs, dryRunDoc(s.target.Name(), d, err))
	}
	worst := exitClean
	for _, d := range docs {
		worst = max(worst, d.ExitCode)
	}
	if a.format == report.FormatHTML {
		if err := writeDryRunHTML(w.stdout, c, docs, worst); err != nil {
			return err
		}
		for _, d := range docs {
			if d.Error != nil {
				fmt.Fprintf(w.stderr, "guard: %s: %s\n", d.Target, d.Error.Message)
			}
		}
	} else if a.format == "json" {
		doc := map[string]any{"tool": "guard", "version": guardVersion(), "command": c.Command.Name, "dry_run": true, "exit_code": worst}
		if a.fleet() {
			doc["targets"] = docs
		} else {
			doc["target"] = docs[0]
		}
		if err := w.writeJSON(doc); err != nil {
			return err
		}
	} else {
		for i, d := range docs {
			if a.fleet() {
				if i > 0 {
					fmt.Fprintln(w.stdout)
				}
				fmt.Fprintf(w.stdout, "== %s\n", d.Target)
			}
			if d.DryRun != nil {
				if err := d.DryRun.WriteText(w.stdout); err != nil {
					return err
				}
			}
			if d.Error != nil {
				fmt.Fprintf(w.stderr, "guard: %s: %s\n", d.Target, d.Error.Message)
			}
		}
	}
	if worst != exitClean {
		return &exitError{code: worst}
	}
	return nil
}

// dryRunDoc is the report of one target's dry run, with its exit code.
func dryRunDoc(name string, d *migrator.DryRun, err error) dryRunJSON {
	doc := dryRunJSON{Target: name, DryRun: d, Refusals: []refusalJSON{}}
	if d != nil {
		if d.Statements == nil {
			d.Statements = []migrator.Impact{}
		}
		if d.Preflight == nil {
			d.Preflight = []migrator.Probe{}
		}
		if d.Steps == nil {
			d.Steps = []migrator.Step{}
		}
		for _, r := range d.Refusals {
			code := migrateExitCode(r)
			doc.Refusals = append(doc.Refusals, refusalJSON{Code: code, Message: r.Error()})
			doc.ExitCode = max(doc.ExitCode, code)
		}
	}
	if err != nil {
		doc.Error = resultDoc(nil, err).Error
		doc.ExitCode = max(doc.ExitCode, doc.Error.Code)
	}
	return doc
}

// writeDryRunHTML writes the html report of the dry run of docs, whole in
// one Write, so that the redacting writer sees it at once.
func writeDryRunHTML(w io.Writer, c *cli.Context, docs []dryRunJSON, worst int) error {
	d := &report.DryRun{Command: strings.Join(append([]string{c.Command.Name}, c.Args().Slice()...), " "), ExitCode: worst}
	for _, doc := range docs {
		t := report.DryRunTarget{Target: doc.Target, ExitCode: doc.ExitCode}
		if doc.Error != nil {
			t.Error = doc.Error.Message
		}
		for _, r := range doc.Refusals {
			t.Refusals = append(t.Refusals, report.DryRunRefusal{Code: r.Code, Message: r.Message})
		}
		if dr := doc.DryRun; dr != nil {
			t.From, t.Server, t.Limit = dr.From.String(), dr.Server, dr.LimitText()
			for i := range dr.Statements {
				im := &dr.Statements[i]
				rows, size := im.RowsText()
				t.Statements = append(t.Statements, report.DryRunStatement{
					File: im.File, Line: im.Line, Table: im.Table, Algorithm: im.Algorithm, Lock: im.Lock,
					Writes: im.WritesText(), Blocks: im.BlocksWrites && im.Tool == "", Rows: rows, Size: size,
					Preflight: im.Preflight, Statement: im.Statement,
				})
				if im.Algorithm != schema.AlgorithmNone {
					t.Statements[len(t.Statements)-1].Why = im.Why
				}
			}
		}
		d.Targets = append(d.Targets, t)
	}
	var buf bytes.Buffer
	if err := report.WriteDryRunHTML(&buf, d, report.Options{Version: guardVersion(), Generated: time.Now()}); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
