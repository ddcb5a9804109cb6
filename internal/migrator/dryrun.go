package migrator

import (
	"context"
	"errors"
	"fmt"
	"github.com/guard-sql/guard/internal/schema"
	"io"
	"strings"
	"text/tabwriter"
)

// DryRun is what a run would do, read from the database without applying
// or writing anything: the steps, what each statement does to the server,
// the preflight's verdicts, and why the run would not start.
type DryRun struct {
	From State `json:"from"`
	// Server is the server's flavor and version: "MariaDB 10.11.6".
	Server string `json:"server"`
	Steps  []Step `json:"steps"`
	// Statements are the pending statements, in the order they would run.
	Statements       []Impact `json:"statements"`
	Preflight        []Probe  `json:"preflight"`
	PreflightSkipped bool     `json:"preflight_skipped,omitempty"`
	// MaxBlockingRows is the limit the run applies (0: none).
	MaxBlockingRows int64 `json:"max_blocking_rows"`
	AllowBlocking   bool  `json:"allow_blocking,omitempty"`
	// Refusals are why the run would not start, each the error it would
	// end with; empty when it would start.
	Refusals []error `json:"-"`
}

// DryRun does what Run does before the first step — reads the state,
// plans the steps, parses the pending files, checks them for order, for
// pt-online-schema-change and for blocking writes, and runs their
// preflight — and describes every pending statement. It applies nothing
// and writes nothing, not even golang-migrate's version table, and takes
// no lock. Its error is one that leaves nothing to describe (a dirty
// state, a file that does not parse); the reasons the run would be
// refused are in Refusals.
func (m *Migrator) DryRun(ctx context.Context, op Op) (*DryRun, error) {
	if err := m.check(op); err != nil {
		return nil, err
	}
	p, err := m.prepare(ctx, op.kind, op.arg, false, true)
	if p == nil {
		return nil, err
	}
	d := &DryRun{From: p.res.From, Server: m.server.String(), Steps: p.steps, Statements: p.impacts,
		Preflight: p.res.Preflight, PreflightSkipped: p.res.PreflightSkipped,
		MaxBlockingRows: m.opts.MaxBlockingRows, AllowBlocking: m.opts.AllowBlocking, Refusals: p.refusals}
	if err != nil {
		return d, err
	}
	d.judge()
	return d, nil
}

// Err is the first refusal, the error the run would end with; nil when it
// would start.
func (d *DryRun) Err() error {
	if len(d.Refusals) == 0 {
		return nil
	}
	return d.Refusals[0]
}

// judge writes each statement's verdict: its probes, a refusal by
// pt-online-schema-change, the blocking limit.
func (d *DryRun) judge() {
	var osc []*OSCRefusedError
	var over []Impact
	for _, r := range d.Refusals {
		var o *OSCRefusedError
		var b *BlockingError
		switch {
		case errors.As(r, &o):
			osc = append(osc, o)
		case errors.As(r, &b):
			over = append(over, b.Impacts...)
		}
	}
	for i := range d.Statements {
		im := &d.Statements[i]
		var parts []string
		failed := false
		for _, p := range d.Preflight {
			g := p.Guard
			if g.File != im.File || g.Line != im.Line || g.Column != im.Column {
				continue
			}
			switch p.Status {
			case StatusFail:
				failed = true
				parts = append(parts, g.String()+": "+p.Verdict())
			case StatusSkipped:
				parts = append(parts, "not checked: "+p.Note)
			}
		}
		for _, o := range osc {
			if o.File == im.File {
				failed = true
				parts = append(parts, PTOSCBinary+" refuses: "+strings.Join(o.Reasons, "; "))
			}
		}
		for _, b := range over {
			if b.File == im.File && b.Line == im.Line {
				failed = true
				parts = append(parts, fmt.Sprintf("blocks writes on %s, above max_blocking_rows %d", rowsText(b), d.MaxBlockingRows))
			}
		}
		if im.ServerRefuses != "" {
			failed = true
			parts = append(parts, "the server refuses it: "+im.ServerRefuses)
		}
		switch {
		case failed:
			im.Preflight = "FAIL: " + strings.Join(parts, "; ")
		case len(parts) > 0:
			im.Preflight = strings.Join(parts, "; ")
		case d.PreflightSkipped:
			im.Preflight = "not checked (--skip-preflight)"
		case d.probed(im):
			im.Preflight = "ok"
		default:
			im.Preflight = "-"
		}
	}
}

// probed reports whether preflight checked something of the statement.
func (d *DryRun) probed(im *Impact) bool {
	for _, p := range d.Preflight {
		if g := p.Guard; g.File == im.File && g.Line == im.Line && g.Column == im.Column {
			return true
		}
	}
	return false
}

// WriteText prints the dry run as a table, one row per statement, then
// why the run would not start.
func (d *DryRun) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "dry run: version %s, %s; nothing is applied\n", d.From, d.Server)
	if len(d.Steps) == 0 {
		fmt.Fprintln(w, "nothing to do")
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "FILE\tTABLE\tALGORITHM\tLOCK\tBLOCKS WRITES\tROWS\tSIZE\tPREFLIGHT\tSTATEMENT")
		for _, im := range d.Statements {
			table := im.Table
			if table == "" {
				table = "-"
			}
			rows, size := im.RowsText()
			fmt.Fprintf(tw, "%s:%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", im.File, im.Line, table, im.Algorithm, im.Lock, im.WritesText(), rows, size, im.Preflight, im.Statement)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, im := range d.Statements {
			if im.Why != "" && im.Algorithm != schema.AlgorithmNone {
				fmt.Fprintf(w, "%s:%d: %s: %s\n", im.File, im.Line, im.Algorithm, im.Why)
			}
		}
	}
	fmt.Fprintf(w, "max_blocking_rows: %s\n", d.LimitText())
	if len(d.Refusals) == 0 {
		_, err := fmt.Fprintln(w, "the run would start")
		return err
	}
	for _, r := range d.Refusals {
		fmt.Fprintf(w, "the run would be refused: %v\n", r)
	}
	return nil
}

// RowsText prints the table's rows ("~" before an estimate) and size, "-"
// for a table that does not exist (yet).
func (im *Impact) RowsText() (rows, size string) {
	if im.Rows < 0 {
		return "-", "-"
	}
	rows = fmt.Sprint(im.Rows)
	if !im.RowsExact {
		rows = "~" + rows
	}
	size = humanBytes(im.Bytes)
	if im.SizeStale {
		size += " (stale statistics)"
	}
	return rows, size
}

// WritesText says what the statement does to the table's writes: "no",
// "blocks writes", "blocks reads and writes", "refused" (by the server as
// written), or "no (pt-online-schema-change)".
func (im *Impact) WritesText() string {
	switch {
	case im.Tool != "":
		return "no (" + OSCPTOnlineSchemaChange + ")"
	case im.ServerRefuses != "":
		return "refused"
	case im.BlocksWrites && im.Lock == schema.LockExclusive:
		return "blocks reads and writes"
	case im.BlocksWrites:
		return "blocks writes"
	}
	return "no"
}

// LimitText prints the max_blocking_rows the run applies.
func (d *DryRun) LimitText() string {
	limit := "no limit"
	if d.MaxBlockingRows > 0 {
		limit = fmt.Sprintf("%d rows", d.MaxBlockingRows)
	}
	if d.AllowBlocking {
		limit += " (--allow-blocking: not applied)"
	}
	return limit
}
