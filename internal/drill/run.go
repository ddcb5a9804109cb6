package drill

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Run drills the table of opts: it copies it into a scratch table, runs
// every strategy in turn on freshly seeded stock, and drops the copy. A
// table the drill cannot run on is a *RefusedError; a cancelled ctx ends
// the run with ErrInterrupted once the copy and its lock keys are dropped,
// and the report holds
// the strategies that finished.
func Run(ctx context.Context, opts Options) (rep *Report, err error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	if opts.DB == nil {
		return nil, errors.New("drill: no database")
	}
	tg, err := inspect(ctx, opts.DB, &opts)
	if err != nil {
		return nil, err
	}
	sc := newScratch(opts.DB, tg, opts.Rows, opts.Stock)
	rep = &Report{
		Table: tg.table.Name, Database: opts.Database, Server: tg.server.String(),
		Scratch: sc.table, View: sc.view,
		PrimaryKey: tg.pk, Counter: tg.counter, Version: tg.version, VersionAdded: tg.addVersion,
		Rows: opts.Rows, Stock: opts.Stock, Workers: opts.Workers, Nodes: opts.Nodes, Duration: opts.Duration, Fault: opts.Fault,
		Notes: tg.notes,
	}
	nodes, err := openNodes(ctx, &opts)
	defer func() {
		if cerr := closeNodes(nodes[1:]); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	if err != nil {
		return rep, err
	}
	defer func() {
		if derr := sc.drop(ctx); derr != nil {
			err = errors.Join(err, derr)
		}
		if derr := dropLocks(ctx, &opts, sc.view); derr != nil {
			err = errors.Join(err, derr)
		}
	}()
	if err := sc.create(ctx); err != nil {
		return rep, err
	}
	if err := sc.seed(ctx); err != nil {
		return rep, interrupted(ctx, err)
	}
	for _, s := range opts.Strategies {
		if err := sc.reseed(ctx); err != nil {
			return rep, interrupted(ctx, err)
		}
		res, err := runStrategy(ctx, s, sc, &opts, nodes)
		if err != nil {
			return rep, interrupted(ctx, err)
		}
		rep.Results = append(rep.Results, res)
	}
	return rep, nil
}

// interrupted tells a cancelled run from a failed one.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	return err
}

// oversoldCap ends the run of a row that sold this many times its stock: a
// lost update keeps the stock up, and a naive run would otherwise go on for
// about workers times the stock; the oversell is proven long before.
const oversoldCap = 2

// node is one application node of the drill: its own pool and Redis
// client.
type node struct {
	db  *sql.DB
	rdb redis.UniversalClient
}

// openNodes returns the nodes of opts: node 0 on its DB and Redis, the
// others opened by NewNode. The first node is there even on an error.
func openNodes(ctx context.Context, opts *Options) ([]node, error) {
	nodes := []node{{db: opts.DB, rdb: opts.Redis}}
	for i := 1; i < opts.Nodes; i++ {
		db, rdb, err := opts.NewNode(ctx, i)
		if err == nil && db == nil {
			err = errors.New("no database")
		}
		if err == nil && rdb == nil && slices.Contains(opts.Strategies, LockCAS) {
			err = errors.New("no Redis for lock-cas")
		}
		if err != nil {
			if db != nil {
				db.Close()
			}
			if rdb != nil {
				rdb.Close()
			}
			return nodes, fmt.Errorf("node %d: %w", i+1, err)
		}
		nodes = append(nodes, node{db: db, rdb: rdb})
	}
	return nodes, nil
}

// closeNodes closes the pools and clients of nodes.
func closeNodes(nodes []node) error {
	var errs []error
	for _, n := range nodes {
		errs = append(errs, n.db.Close())
		if n.rdb != nil {
			errs = append(errs, n.rdb.Close())
		}
	}
	return errors.Join(errs...)
}

// runner runs one strategy's workers and keeps their tallies.
type runner struct {
	// deducts holds the deduction of each node; worker i works on node
	// i % len(deducts), and nodeOps counts each node's deductions.
	deducts []deductFunc
	nodeOps []atomic.Int64
	rows    int
	stock   int64
	// stop tells the workers not to start another deduction; a deduction
	// under way always finishes, so that its outcome is known.
	stop    atomic.Bool
	soldOut []atomic.Bool
	left    atomic.Int64 // rows not sold out
	sold    []atomic.Int64
	total   atomic.Int64 // units sold, all rows
	refused atomic.Int64
	short   atomic.Int64 // deductions told insufficient
	errOnce sync.Once
	err     error
}

// runStrategy seeds nothing: it runs the workers of s on the stock as it is,
// then reads the final stock.
func runStrategy(ctx context.Context, s Strategy, sc *scratch, opts *Options, nodes []node) (*Result, error) {
	sr := newStrategyRun(s, sc, opts, nodes)
	r := &runner{deducts: sr.deducts, nodeOps: make([]atomic.Int64, len(nodes)), rows: opts.Rows, stock: opts.Stock, soldOut: make([]atomic.Bool, opts.Rows), sold: make([]atomic.Int64, opts.Rows)}
	r.left.Store(int64(opts.Rows))

	hists, elapsed := r.runWorkers(ctx, s, sc, opts)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, fmt.Errorf("%s: %w", s, r.err)
	}

	final, err := sc.final(ctx)
	if err != nil {
		return nil, err
	}
	res := r.result(s, sr, hists, final, elapsed)
	if m := sr.metrics; m != nil {
		res.addLockMetrics(m, opts.Policy.Lock.TTL.Duration)
	}
	return res, nil
}

// runWorkers runs opts.Workers workers until the stock is sold out, the
// duration is over or ctx is cancelled, with the progress bar and, for
// lock-cas, the Redis fault running beside them; both are stopped before
// it returns, so that nothing of the strategy outlives its run. It returns
// each worker's latencies and how long the workers ran.
func (r *runner) runWorkers(ctx context.Context, s Strategy, sc *scratch, opts *Options) ([]histogram, time.Duration) {
	var bar *progress
	if opts.Progress != nil {
		bar = newProgress(opts.Progress, string(s), int64(opts.Rows)*opts.Stock, opts.Duration, &r.total)
	}
	var background sync.WaitGroup
	faultCtx, stopFault := context.WithCancel(ctx)
	if s == LockCAS && opts.Fault != NoFault {
		background.Add(1)
		go func() {
			defer background.Done()
			runFault(faultCtx, opts, sc.view, &r.total, int64(opts.Rows)*opts.Stock)
		}()
	}
	if opts.Duration > 0 {
		timer := time.AfterFunc(opts.Duration, func() { r.stop.Store(true) })
		defer timer.Stop()
	}
	stopOnCancel := context.AfterFunc(ctx, func() { r.stop.Store(true) })
	defer stopOnCancel()

	hists := make([]histogram, opts.Workers)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx, i%len(r.deducts), &hists[i])
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopFault()
	background.Wait()
	if bar != nil {
		bar.stop()
	}
	return hists, elapsed
}

// result tallies the run of s from the workers' counts, their latencies
// and the final stock of each row: what was sold and oversold, and whether
// stock - sold == final held on every row.
func (r *runner) result(s Strategy, sr *strategyRun, hists []histogram, final []int64, elapsed time.Duration) *Result {
	var lat histogram
	for i := range hists {
		lat.merge(&hists[i])
	}
	res := &Result{
		Strategy: s, Elapsed: elapsed, Ops: lat.total,
		Insufficient: r.short.Load(), Refused: r.refused.Load(),
		P50: lat.quantile(0.50), P99: lat.quantile(0.99), Max: lat.max, Latency: lat.bins(),
		CASConflicts: sr.conflicts.Load(), Consistent: true,
	}
	for i := range r.nodeOps {
		res.NodeOps = append(res.NodeOps, r.nodeOps[i].Load())
	}
	for i := range final {
		n := r.sold[i].Load()
		res.Successes += n
		res.Oversold += max(0, n-r.stock)
		res.FinalStock += final[i]
		res.ExpectedStock += r.stock - n
		if r.stock-n != final[i] {
			res.Consistent = false
		}
	}
	if elapsed > 0 {
		res.OpsPerSec = float64(res.Successes) / elapsed.Seconds()
	}
	return res
}

// addLockMetrics adds what lock-cas's DAO counted: its compare-and-set
// conflicts stand for the strategy's, which lock-cas reports through the
// DAO's metrics only, and the lock's hold times, from which the report
// advises a TTL against ttl, the configured one.
func (res *Result) addLockMetrics(m *lockMetrics, ttl time.Duration) {
	res.CASConflicts = m.conflicts.Load()
	res.LockTaken = m.taken.Load()
	res.LockError = m.failed.Load()
	res.LockLost = m.renewFailed.Load() + m.releaseLost.Load()
	res.LockTTL = ttl
	m.mu.Lock()
	res.LockHolds = m.held.total
	res.HeldP50, res.HeldP99, res.HeldMax = m.held.quantile(0.50), m.held.quantile(0.99), m.held.max
	m.mu.Unlock()
}

// work deducts one unit at a time on node n until told to stop or every
// row is sold out, recording each deduction's latency in h.
func (r *runner) work(ctx context.Context, n int, h *histogram) {
	for !r.stop.Load() {
		id := r.pick()
		if id == 0 {
			return
		}
		began := time.Now()
		out, err := r.deducts[n](ctx, id)
		h.record(time.Since(began))
		r.nodeOps[n].Add(1)
		if err != nil {
			if ctx.Err() == nil {
				r.fail(err)
			}
			return
		}
		switch out {
		case sold:
			r.total.Add(1)
			if r.sold[id-1].Add(1) >= oversoldCap*r.stock {
				r.closeRow(id)
			}
		case insufficient:
			r.short.Add(1)
			r.closeRow(id)
		case refused:
			r.refused.Add(1)
		}
	}
}

// closeRow marks row id sold out, and stops the run when it was the last.
func (r *runner) closeRow(id int64) {
	if !r.soldOut[id-1].Swap(true) && r.left.Add(-1) == 0 {
		r.stop.Store(true)
	}
}

// pick returns a row not sold out: row 1 in the hot row mode, a random one
// when spread; 0 when every row is sold out.
func (r *runner) pick() int64 {
	if r.left.Load() == 0 {
		return 0
	}
	start := 0
	if r.rows > 1 {
		start = rand.IntN(r.rows)
	}
	for i := range r.rows {
		j := (start + i) % r.rows
		if !r.soldOut[j].Load() {
			return int64(j + 1)
		}
	}
	return 0
}

// fail stops the run on its first unexpected error.
func (r *runner) fail(err error) {
	r.errOnce.Do(func() {
		r.err = err
		r.stop.Store(true)
	})
}
