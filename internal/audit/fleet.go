package audit

import (
	"context"
	"sync"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
)

// Failure is a target that could not be audited, in the json report's
// "failures" array.
type Failure struct {
	Target string `json:"target"`
	Error  string `json:"error"`
}

// Report is the outcome of auditing a fleet.
type Report struct {
	// Result holds the findings of every audited target; its summary counts
	// them and the tables read.
	Result *lint.Result
	// Failures lists the targets that could not be audited, in input order.
	Failures []Failure
	// Targets has one result per target, in input order.
	Targets []*TargetResult
	// Notes say what the audit of each target could not see, in input order.
	Notes []Note
}

// Note is something the audit of a target could not see.
type Note struct {
	Target  string `json:"target"`
	Message string `json:"message"`
}

// Run audits targets, opts.Parallel at a time. A target that cannot be
// reached or read is a Failure; the others are audited and reported all
// the same. Every error text is redacted with the passwords of all targets.
func Run(ctx context.Context, targets []*target.Target, opts Options) *Report {
	opts = opts.withDefaults()
	red := target.RedactorOf(targets)
	opts.Log = red.Writer(opts.Log)
	results := make([]*TargetResult, len(targets))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(opts.Parallel, len(targets)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res := AuditTarget(ctx, targets[i], opts)
				results[i] = res
				if opts.Done != nil {
					opts.Done(res)
				}
			}
		}()
	}
	for i := range targets {
		next <- i
	}
	close(next)
	wg.Wait()

	rep := &Report{Result: &lint.Result{Findings: []lint.Finding{}}, Targets: results}
	for _, res := range results {
		if res.Err != nil {
			rep.Failures = append(rep.Failures, Failure{Target: res.Target, Error: red.Redact(res.Err.Error())})
			continue
		}
		for _, n := range res.Notes {
			rep.Notes = append(rep.Notes, Note{Target: res.Target, Message: n})
		}
		rep.Result.Findings = append(rep.Result.Findings, res.Findings...)
		rep.Result.Summary.Tables += res.Tables
	}
	rep.Result.Findings = sortLive(rep.Result.Findings)
	if opts.Baseline != nil {
		var o lint.BaselineOutcome
		rep.Result.Findings, o = opts.Baseline.Filter(rep.Result.Findings)
		if len(rep.Failures) > 0 {
			// An entry of a target not audited is not paid debt.
			o.Stale = nil
		}
		rep.Result.Baseline = &o
	}
	for _, f := range rep.Result.Findings {
		switch f.Severity {
		case policy.SevError:
			rep.Result.Summary.Error++
		case policy.SevWarning:
			rep.Result.Summary.Warning++
		case policy.SevInfo:
			rep.Result.Summary.Info++
		}
	}
	return rep
}

// Queries returns how many statements the audit sent, over all targets.
func (r *Report) Queries() int {
	n := 0
	for _, t := range r.Targets {
		n += t.Queries
	}
	return n
}
