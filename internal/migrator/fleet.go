package migrator

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
)

// DefaultParallel is how many targets of a fleet migrate at once by default.
const DefaultParallel = 4

// ErrFleetStopped is the cause of a run that a fleet stopped between two
// migrations because another target failed.
var ErrFleetStopped = errors.New("another target of the fleet failed")

// Outcomes of a target in a fleet run.
const (
	OutcomeApplied     = "applied"     // migrations were applied (or undone)
	OutcomeNoChange    = "no change"   // nothing to do
	OutcomeRefused     = "refused"     // preflight found rows a guard would reject, or a statement blocks writes on a big table; nothing applied there
	OutcomeFailed      = "failed"      // the target failed otherwise; see Err
	OutcomeDirty       = "dirty"       // the version is dirty
	OutcomeStopped     = "stopped"     // stopped at a clean version after another target failed
	OutcomeInterrupted = "interrupted" // SIGINT or SIGTERM stopped it between two migrations, at a clean version
	OutcomeNotStarted  = "not started" // nothing was applied: another target failed first
)

// FleetTarget is one database of a fleet.
type FleetTarget struct {
	// Name is host:port/db, never a credential.
	Name   string
	Config *mysql.Config
}

// FleetOptions configure RunFleet.
type FleetOptions struct {
	// Options apply to every target; Log and Stop are set per target.
	Options
	// Parallel is how many targets run at once (default DefaultParallel).
	Parallel int
	// Continue runs every target whatever the others do: no preflight of
	// the whole fleet first, no stop after a failure.
	Continue bool
	// Log receives the report lines of every target, each line prefixed
	// with the target's name.
	Log io.Writer
	// Done is called once per target when its outcome is known.
	Done func(*TargetResult)
}

// TargetResult is what a fleet run did on one target.
type TargetResult struct {
	Target string `json:"target"`
	// From and To are the states before and after; nil when unread.
	From *State `json:"from"`
	To   *State `json:"to"`
	// Steps counts the migrations applied or undone.
	Steps   int           `json:"steps"`
	Elapsed time.Duration `json:"-"`
	Outcome string        `json:"outcome"`
	// Result is the run's report; nil when the target was not run.
	Result *Result `json:"-"`
	// Err is why the target failed, was refused, stopped or not started.
	Err error `json:"-"`
}

// RunFleet runs op on every target, opts.Parallel at a time, and returns
// one result per target in input order. Unless opts.Continue, every
// target is checked first (state, files, preflight: Check) and nothing is
// applied anywhere unless every check passes; once applying, a failed
// target stops the fleet: no target starts after it, and the running ones
// stop after the migration they are running, at a clean version. With
// opts.Continue every target runs on its own, its own preflight guarding
// it alone.
func RunFleet(ctx context.Context, targets []FleetTarget, op Op, opts FleetOptions) []*TargetResult {
	if opts.Parallel < 1 {
		opts.Parallel = DefaultParallel
	}
	f := &fleetRun{ctx: ctx, targets: targets, op: op, opts: opts,
		results: make([]*TargetResult, len(targets)), ms: make([]*Migrator, len(targets))}
	defer f.close()

	// Open every target, and check it unless each runs on its own.
	forEach(len(targets), opts.Parallel, f.openAndCheck)
	if !opts.Continue && f.failed.Load() {
		for i := range targets {
			if f.results[i] == nil {
				f.finish(i, f.notStarted(i, ErrFleetStopped))
			}
		}
		return f.results
	}
	forEach(len(targets), opts.Parallel, f.apply)
	return f.results
}

// fleetRun is one RunFleet at work. Its targets share the knowledge that
// one of them failed (failed), which stops the others between two
// migrations, and one log whose lines must not interleave (logMu).
type fleetRun struct {
	ctx     context.Context
	targets []FleetTarget
	op      Op
	opts    FleetOptions
	// results and ms are indexed as targets; a result is set once, when
	// the target's outcome is known.
	results []*TargetResult
	ms      []*Migrator
	failed  atomic.Bool
	logMu   sync.Mutex
}

// close closes every migrator that was opened, whatever became of its
// target: each holds a pool of connections to it.
func (f *fleetRun) close() {
	for _, m := range f.ms {
		if m != nil {
			m.Close()
		}
	}
}

// stop is each migrator's Options.Stop: after a failure anywhere, the
// fleet stops between two migrations, unless each target runs on its own.
func (f *fleetRun) stop() error {
	if !f.opts.Continue && f.failed.Load() {
		return ErrFleetStopped
	}
	return nil
}

// finish records target i's outcome, marks the fleet failed when it is a
// failure and reports it to opts.Done.
func (f *fleetRun) finish(i int, r *TargetResult) {
	if r.Outcome == OutcomeFailed && f.ctx.Err() != nil {
		r.Outcome = OutcomeInterrupted
	}
	f.results[i] = r
	if r.Outcome != OutcomeApplied && r.Outcome != OutcomeNoChange && r.Outcome != OutcomeNotStarted {
		f.failed.Store(true)
	}
	if f.opts.Done != nil {
		f.opts.Done(r)
	}
}

// openAndCheck opens target i, with its own prefixed log, and checks it
// (state, files, preflight) unless each target runs on its own: a target
// that cannot be opened or fails its check is finished here.
func (f *fleetRun) openAndCheck(i int) {
	t := f.targets[i]
	o := f.opts.Options
	o.Log = &prefixWriter{w: f.opts.Log, mu: &f.logMu, prefix: t.Name + ": "}
	if f.opts.Log == nil {
		o.Log = nil
	}
	o.Stop = f.stop
	start := time.Now()
	m, err := Open(f.ctx, t.Config, o)
	if err != nil {
		f.finish(i, &TargetResult{Target: t.Name, Outcome: OutcomeFailed, Err: err, Elapsed: time.Since(start)})
		return
	}
	f.ms[i] = m
	if f.opts.Continue {
		return
	}
	res, err := m.Check(f.ctx, f.op)
	if err != nil {
		f.finish(i, targetResult(t.Name, res, err, time.Since(start)))
	}
}

// apply runs op on target i, unless it is finished already or the fleet
// stopped before its turn came.
func (f *fleetRun) apply(i int) {
	if f.results[i] != nil {
		return
	}
	if err := f.stop(); err != nil {
		f.finish(i, f.notStarted(i, err))
		return
	}
	start := time.Now()
	res, err := f.ms[i].Run(f.ctx, f.op)
	f.finish(i, targetResult(f.targets[i].Name, res, err, time.Since(start)))
}

// notStarted is the result of target i when another target's failure kept
// it from starting; its state is read, even when the run is being
// cancelled, so that the report says where it was left.
func (f *fleetRun) notStarted(i int, err error) *TargetResult {
	r := &TargetResult{Target: f.targets[i].Name, Outcome: OutcomeNotStarted, Err: err}
	if st, serr := f.ms[i].State(context.WithoutCancel(f.ctx)); serr == nil {
		r.From, r.To = &st, &st
	}
	return r
}

// targetResult turns a run's result and error into a fleet's row.
func targetResult(name string, res *Result, err error, elapsed time.Duration) *TargetResult {
	r := &TargetResult{Target: name, Result: res, Err: err, Elapsed: elapsed}
	if res != nil {
		from, to := res.From, res.To
		r.From, r.Steps = &from, len(res.Applied)
		if !res.toUnknown {
			r.To = &to
		}
	}
	var dirty *DirtyError
	var refused *RefusedError
	var blocking *BlockingError
	var osc *OSCRefusedError
	switch {
	case err == nil && r.Steps > 0:
		r.Outcome = OutcomeApplied
	case err == nil:
		r.Outcome = OutcomeNoChange
	case errors.As(err, &dirty):
		r.Outcome = OutcomeDirty
	case errors.Is(err, ErrFleetStopped):
		r.Outcome = OutcomeStopped
	case errors.As(err, &refused), errors.As(err, &blocking), errors.As(err, &osc):
		r.Outcome = OutcomeRefused
	default:
		r.Outcome = OutcomeFailed
	}
	return r
}

// TargetStatus is the status of one target of a fleet.
type TargetStatus struct {
	Target  string  `json:"target"`
	Status  *Status `json:"status,omitempty"`
	Pending int     `json:"pending"`
	Err     error   `json:"-"`
}

// StatusFleet reads the status of every target, parallel at a time, in
// input order.
func StatusFleet(ctx context.Context, targets []FleetTarget, opts Options, parallel int) []*TargetStatus {
	if parallel < 1 {
		parallel = DefaultParallel
	}
	out := make([]*TargetStatus, len(targets))
	forEach(len(targets), parallel, func(i int) {
		ts := &TargetStatus{Target: targets[i].Name}
		out[i] = ts
		m, err := Open(ctx, targets[i].Config, opts)
		if err != nil {
			ts.Err = err
			return
		}
		defer m.Close()
		if ts.Status, ts.Err = m.Status(ctx); ts.Err != nil {
			return
		}
		for _, ms := range ts.Status.Migrations {
			if ms.State == StatePending {
				ts.Pending++
			}
		}
	})
	return out
}

// forEach calls fn(0) … fn(n-1), parallel at a time, handing out the
// indexes in order.
func forEach(n, parallel int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(parallel, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// prefixWriter writes whole lines to w, each behind prefix; the writers
// of a fleet share mu, so that the lines of two targets never mix.
type prefixWriter struct {
	w      io.Writer
	mu     *sync.Mutex
	prefix string
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.mu.Lock()
		_, err := io.WriteString(p.w, p.prefix+string(p.buf[:i+1]))
		p.mu.Unlock()
		p.buf = p.buf[i+1:]
		if err != nil {
			return len(b), err
		}
	}
}

// TargetDryRun is the dry run of one target of a fleet.
type TargetDryRun struct {
	Target string
	DryRun *DryRun
	// Err is why the target could not be described (unreachable, dirty, a
	// file that does not parse); the refusals are in DryRun.
	Err error
}

// DryRunFleet describes op on every target, parallel at a time, in input
// order; like DryRun it applies and writes nothing.
func DryRunFleet(ctx context.Context, targets []FleetTarget, op Op, opts Options, parallel int) []*TargetDryRun {
	if parallel < 1 {
		parallel = DefaultParallel
	}
	out := make([]*TargetDryRun, len(targets))
	forEach(len(targets), parallel, func(i int) {
		r := &TargetDryRun{Target: targets[i].Name}
		out[i] = r
		m, err := Open(ctx, targets[i].Config, opts)
		if err != nil {
			r.Err = err
			return
		}
		defer m.Close()
		r.DryRun, r.Err = m.DryRun(ctx, op)
	})
	return out
}
