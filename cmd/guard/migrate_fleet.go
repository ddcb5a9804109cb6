package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/audit"
	"github.com/guard-sql/guard/internal/driverlog"
	"github.com/guard-sql/guard/internal/migrator"
	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/internal/target"
)

// Values of --on-error.
const (
	onErrorStop     = "stop"
	onErrorContinue = "continue"
)

// fleetCommands are the migrate subcommands that work on a fleet.
var fleetCommands = map[string]bool{"up": true, "down": true, "goto": true, "status": true}

// fleet reports whether the run names more than one database: several
// --dsn, or --targets.
func (a *migrateArgs) fleet() bool { return len(a.dsns) > 1 || a.targets != "" }

// fleetRun is a migrate subcommand at work on a fleet: its targets and
// writers that redact the password of every one.
type fleetRun struct {
	targets        []*target.Target
	fleet          []migrator.FleetTarget
	stdout, stderr io.Writer
}

func openFleet(c *cli.Context, a *migrateArgs) (*fleetRun, error) {
	ts, red, err := collectTargets(target.Sources{DSNs: a.dsns, TargetsFile: a.targets, Env: os.Getenv(target.EnvDSN)})
	if err != nil {
		return nil, inputErrf("migrate: %v", err)
	}
	stdout := c.App.Writer
	if a.format == "text" {
		stdout = report.PrintableWriter(stdout)
	}
	f := &fleetRun{targets: ts, stdout: red.Writer(stdout), stderr: red.Writer(report.PrintableWriter(c.App.ErrWriter))}
	for _, t := range ts {
		t.SetConnectTimeout(a.connectTimeout)
		cfg := t.Config()
		cfg.Logger = driverlog.MySQL(f.stderr, "guard: "+t.Name()+": driver: ")
		f.fleet = append(f.fleet, migrator.FleetTarget{Name: t.Name(), Config: cfg})
	}
	return f, nil
}

// fleetRowJSON is one target of the json report of a fleet run.
type fleetRowJSON struct {
	Target    string                  `json:"target"`
	From      *migrator.State         `json:"from"`
	To        *migrator.State         `json:"to"`
	Steps     int                     `json:"steps"`
	ElapsedMS int64                   `json:"elapsed_ms"`
	Outcome   string                  `json:"outcome"`
	ExitCode  int                     `json:"exit_code"`
	Applied   []migrator.Applied      `json:"applied"`
	Preflight []migrator.Probe        `json:"preflight"`
	Skipped   bool                    `json:"preflight_skipped,omitempty"`
	Verified  []migrator.Verification `json:"verified"`
	Error     *migrateErrorJSON       `json:"error"`
}

// runFleet runs up, down or goto on every target of the fleet and prints
// one row per target; the exit code is the worst of the targets'.
func runFleet(c *cli.Context, a *migrateArgs, op migrator.Op) error {
	f, err := openFleet(c, a)
	if err != nil {
		return err
	}
	opts := migrator.FleetOptions{
		Options:  a.options(),
		Parallel: a.parallel,
		Continue: a.onError == onErrorContinue,
	}
	if a.format == "text" {
		opts.Log = f.stdout
	}
	var bar *audit.Progress
	if audit.ShowProgress(c.App.ErrWriter) {
		bar = audit.NewNamedProgress(f.stderr, "guard migrate "+c.Command.Name, len(f.targets))
		opts.Done = func(*migrator.TargetResult) { bar.Done() }
	}
	results := migrator.RunFleet(c.Context, f.fleet, op, opts)
	if bar != nil {
		bar.Stop()
	}
	worst := exitClean
	rows := make([]fleetRowJSON, len(results))
	for i, r := range results {
		code := exitClean
		if r.Err != nil && r.Outcome != migrator.OutcomeNotStarted {
			code = migrateExitCode(r.Err)
			f.explain(a, i, r.Err)
		}
		worst = max(worst, code)
		doc := resultDoc(r.Result, r.Err)
		if r.Outcome == migrator.OutcomeNotStarted {
			doc.Error.Code = exitClean
		}
		var dirty *migrator.DirtyError
		if errors.As(r.Err, &dirty) {
			doc.Error.ForceCommand = (&session{args: a, target: f.targets[i]}).forceCommand(dirty.Force)
		}
		rows[i] = fleetRowJSON{Target: r.Target, From: r.From, To: r.To, Steps: r.Steps, ElapsedMS: r.Elapsed.Milliseconds(),
			Outcome: r.Outcome, ExitCode: code, Applied: doc.Applied, Preflight: doc.Preflight, Skipped: doc.Skipped,
			Verified: doc.Verified, Error: doc.Error}
	}
	if a.format == "json" {
		doc := map[string]any{"tool": "guard", "version": guardVersion(), "command": c.Command.Name,
			"targets": rows, "summary": fleetSummary(results), "exit_code": worst}
		if err := f.writeJSON(doc); err != nil {
			return err
		}
	} else if err := writeFleetTable(f.stdout, results); err != nil {
		return err
	}
	if worst != exitClean {
		return &exitError{code: worst}
	}
	return nil
}

// explain prints target i's error on stderr, with the way out of a dirty
// state or a lock wait.
func (f *fleetRun) explain(a *migrateArgs, i int, err error) {
	name := f.targets[i].Name()
	fmt.Fprintf(f.stderr, "guard: %s: %v\n", name, err)
	var dirty *migrator.DirtyError
	var wait *migrator.LockWaitError
	switch {
	case errors.As(err, &dirty):
		s := &session{args: a, target: f.targets[i]}
		fmt.Fprintf(f.stderr, "  %s\n", dirty.Explain())
		fmt.Fprintf(f.stderr, "  once repaired: %s%s\n", s.forceCommand(dirty.Force), s.forceNote())
	case errors.As(err, &wait):
		fmt.Fprintf(f.stderr, "  %s\n", wait.Explain())
	}
}

// fleetSummary counts the targets by outcome.
func fleetSummary(results []*migrator.TargetResult) map[string]int {
	out := map[string]int{"targets": len(results)}
	for _, r := range results {
		out[r.Outcome]++
	}
	return out
}

// writeFleetTable prints one row per target and a count by outcome.
func writeFleetTable(w io.Writer, results []*migrator.TargetResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TARGET\tFROM\tTO\tSTEPS\tTIME\tOUTCOME")
	counts := map[string]int{}
	var order []string
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.Target, stateText(r.From), stateText(r.To), r.Steps,
			r.Elapsed.Round(time.Millisecond), r.Outcome)
		if counts[r.Outcome] == 0 {
			order = append(order, r.Outcome)
		}
		counts[r.Outcome]++
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s:", plural(len(results), "target"))
	for i, o := range order {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %d %s", sep, counts[o], o)
	}
	_, err := fmt.Fprintln(w)
	return err
}

func stateText(st *migrator.State) string {
	if st == nil {
		return "?"
	}
	return st.String()
}

// runFleetStatus prints the version and pending count of every target;
// exit 4 when any is dirty, 3 when any cannot be read.
func runFleetStatus(c *cli.Context, a *migrateArgs) error {
	f, err := openFleet(c, a)
	if err != nil {
		return err
	}
	opts := migrator.Options{Dir: a.dir, LockTimeout: a.lockTimeout}
	sts := migrator.StatusFleet(c.Context, f.fleet, opts, a.parallel)
	worst := exitClean
	type rowJSON struct {
		Target  string           `json:"target"`
		State   *migrator.State  `json:"state"`
		Pending int              `json:"pending"`
		Status  *migrator.Status `json:"status,omitempty"`
		Error   string           `json:"error,omitempty"`
	}
	rows := make([]rowJSON, len(sts))
	for i, s := range sts {
		rows[i] = rowJSON{Target: s.Target, Pending: s.Pending, Status: s.Status}
		switch {
		case s.Err != nil:
			fmt.Fprintf(f.stderr, "guard: %s: %v\n", s.Target, s.Err)
			worst = max(worst, migrateExitCode(s.Err))
			rows[i].Error = s.Err.Error()
		case s.Status.State.Dirty:
			worst = max(worst, exitDirty)
		}
		if s.Status != nil {
			rows[i].State = &s.Status.State
		}
	}
	if a.format == "json" {
		err = f.writeJSON(map[string]any{"tool": "guard", "version": guardVersion(), "command": "status", "targets": rows, "exit_code": worst})
	} else {
		tw := tabwriter.NewWriter(f.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "TARGET\tVERSION\tPENDING\tNOTE")
		for _, r := range rows {
			note := r.Error
			if r.Status != nil && r.Status.Note != "" {
				note = r.Status.Note
			}
			if note == "" && r.State != nil && r.State.Dirty {
				note = "dirty: see guard migrate status --dsn for this target"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", r.Target, stateText(r.State), r.Pending, note)
		}
		err = tw.Flush()
	}
	if err != nil {
		return err
	}
	if worst != exitClean {
		return &exitError{code: worst}
	}
	return nil
}

// writeJSON writes v indented, through the redactor.
func (f *fleetRun) writeJSON(v any) error {
	b, err := encodeIndented(v)
	if err != nil {
		return err
	}
	_, err = f.stdout.Write(b)
	return err
}

// plural prints n things: "1 target", "3 targets".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
