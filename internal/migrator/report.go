package migrator

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Verdict describes the probe's finding in words: "3 rows break it".
func (p Probe) Verdict() string {
	switch p.Status {
	case StatusSkipped:
		return "not checked: " + p.Note
	case StatusOK:
		return "no existing row breaks it"
	}
	var parts []string
	if p.Groups > 0 {
		parts = append(parts, fmt.Sprintf("%s held by %s", plural(p.Groups, "duplicate value"), plural(p.Rows-p.NullRows, "row")))
	}
	if p.NullRows > 0 {
		parts = append(parts, plural(p.NullRows, "row")+" with NULL in the key")
	}
	if len(parts) > 0 {
		return strings.Join(parts, ", ")
	}
	if p.Guard != nil && p.Guard.Kind == KindFits {
		verb := " hold values that do not fit "
		if p.Rows == 1 {
			verb = " holds a value that does not fit "
		}
		return plural(p.Rows, "row") + verb + p.Guard.Expr
	}
	if p.Rows == 1 {
		return "1 row breaks it"
	}
	return plural(p.Rows, "row") + " break it"
}

// plural prints n things: "1 row", "2 rows".
func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// WriteProbes prints one line per probe, failures with their samples.
func WriteProbes(w io.Writer, probes []Probe) {
	for _, p := range probes {
		g := p.Guard
		label := map[string]string{StatusOK: "ok", StatusFail: "FAIL", StatusSkipped: "skipped"}[p.Status]
		fmt.Fprintf(w, "preflight %s: %s:%d:%d: %s: %s", label, g.File, g.Line, g.Column, g, p.Verdict())
		if d := p.Elapsed.Round(time.Millisecond); p.Status != StatusSkipped && d > 0 {
			fmt.Fprintf(w, " (%s)", d)
		}
		fmt.Fprintln(w)
		for _, s := range p.Samples {
			fmt.Fprintf(w, "    %s\n", s)
		}
	}
}

// WriteVerifications prints one line per guard looked for.
func WriteVerifications(w io.Writer, vs []Verification) {
	for _, v := range vs {
		switch v.Status {
		case VerifyPresent:
			fmt.Fprintf(w, "verified: %s\n", v.Guard)
		case VerifyUnknown:
			fmt.Fprintf(w, "not verified: %s (%s)\n", v.Guard, v.Note)
		default:
			fmt.Fprintf(w, "MISSING: %s (%s)\n", v.Guard, v.Note)
		}
	}
}

// WriteText prints the outcome of a run, after the lines Options.Log got:
// "version 1 -> 3", or "no change: version 3".
func (r *Result) WriteText(w io.Writer) {
	if len(r.Applied) == 0 && r.From == r.To {
		fmt.Fprintf(w, "no change: version %s\n", r.To)
		return
	}
	fmt.Fprintf(w, "version %s -> %s\n", r.From, r.To)
}
