package report

import (
	"io"
	"strings"
)

// DryRun is what guard migrate up, down or goto --dry-run found, as its
// html report shows it; the command fills it from the migrator's.
type DryRun struct {
	// Command is the run described: "up", "down 1", "goto 7".
	Command string
	// ExitCode is the one the run would end with before its first step.
	ExitCode int
	Targets  []DryRunTarget
}

// DryRunTarget is one target's dry run.
type DryRunTarget struct {
	Target string
	// From is the version the target is at; Server its flavor and version.
	From, Server string
	Statements   []DryRunStatement
	// Limit is the max_blocking_rows the run applies.
	Limit string
	// Refusals are why the run would not start; empty when it would.
	Refusals []DryRunRefusal
	// Error is why the target could not be described at all.
	Error    string
	ExitCode int
}

// DryRunRefusal is one reason the run would not start, with the exit code
// it would end with.
type DryRunRefusal struct {
	Code    int
	Message string
}

// DryRunStatement is one pending statement: what it does to the server.
type DryRunStatement struct {
	File string
	Line int
	// Table is "" for a statement on the server or the database.
	Table, Algorithm, Lock string
	// Writes says what it does to the table's writes ("no", "blocks
	// writes", …); Blocks is set when they wait for the whole statement.
	Writes string
	Blocks bool
	// Rows and Size are the table's, "-" when it does not exist yet.
	Rows, Size string
	// Preflight is the verdict on its guards: "ok", "FAIL: …", "-".
	Preflight string
	// Statement is the statement on one line, shortened; Why what decides
	// its algorithm.
	Statement, Why string
}

// Failed says the preflight or a limit refuses the statement.
func (s DryRunStatement) Failed() bool { return strings.HasPrefix(s.Preflight, "FAIL") }

// Starts says the run would start on the target.
func (t DryRunTarget) Starts() bool { return t.Error == "" && len(t.Refusals) == 0 }

// dryRunPage is what html/dryrun.tmpl shows.
type dryRunPage struct {
	htmlPage
	*DryRun
	// Starting counts the targets the run would start on; Statements the
	// pending statements of every target, Blocking those that block
	// writes, Failing those refused.
	Starting, Statements, Blocking, Failing int
}

// WriteDryRunHTML writes the html report of a dry run: per target, every
// pending statement with its algorithm, lock, what it does to writes, the
// table's rows and size and the preflight's verdict, and why the run
// would not start.
func WriteDryRunHTML(w io.Writer, d *DryRun, opts Options) error {
	p := &dryRunPage{htmlPage: newHTMLPage("guard migrate "+d.Command+" --dry-run", opts), DryRun: d}
	for _, t := range d.Targets {
		if t.Starts() {
			p.Starting++
		}
		for _, s := range t.Statements {
			p.Statements++
			if s.Blocks {
				p.Blocking++
			}
			if s.Failed() {
				p.Failing++
			}
		}
	}
	return renderHTML(w, "dryrun", p)
}
