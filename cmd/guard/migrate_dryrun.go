package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/migrator"
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
	if a.format == "json" {
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
