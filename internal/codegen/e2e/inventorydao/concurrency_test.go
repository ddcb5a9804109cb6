package inventorydao

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
)

// The sale every scenario runs: workers goroutines each buy one unit of a
// row holding stock, retrying what may be retried, until sold out.
const (
	workers = 300
	stock   = 100
	// runTimeout bounds one scenario; a worker still retrying then fails it.
	runTimeout = 60 * time.Second
)

// sale is one run of the harness.
type sale struct {
	t      *testing.T
	db     *sqlx.DB
	rdb    redis.UniversalClient
	dao    *InventoryDAO
	id     int64
	m      *recorder
	deduct func(ctx context.Context, id, n int64) error
	// srv is the Redis server of the sale, sentinel its Sentinel set when
	// it has one.
	srv      *dbtest.RedisServer
	sentinel *dbtest.SentinelSet
	// batched is the scenario's: one write may carry several sales.
	batched bool

	succeeded, insufficient, attempts atomic.Int64
	conflicts, notAcquired, lost      atomic.Int64

	// pace, when set, lets one attempt start per tick, so that a fault
	// lands while the sale is under way; paused holds the attempts back.
	pace    time.Duration
	permits chan struct{}
	paused  atomic.Bool
	soldOut chan struct{}
	sold    sync.Once
}

// scenario is a fault (or none) injected into a sale.
type scenario struct {
	name string
	// redis returns the client the DAO uses, after setting the servers of
	// s that the fault needs; nil means a fresh redis-server.
	redis func(t *testing.T, s *sale) redis.UniversalClient
	opts  []Option
	pace  time.Duration
	// prepare adjusts the DAO before the sale: test hooks, no watchdog.
	prepare func(s *sale)
	// fault runs beside the workers until ctx ends.
	fault func(ctx context.Context, s *sale)
	// after checks what the scenario must have caused.
	after func(t *testing.T, s *sale)
	// batched says a write may carry several sales (hot-row combining):
	// the version then moves at most once per sale, not exactly once.
	batched bool
}

// runSale runs the sale of sc with the DAO's locked deduction, or with
// deduct when it is given, and returns it once every worker is done.
func runSale(t *testing.T, sc scenario, deduct func(s *sale) func(ctx context.Context, id, n int64) error) *sale {
	t.Helper()
	db := newDB(t)
	m := newRecorder()
	s := &sale{t: t, db: db, m: m, id: insertRow(t, db, stock), pace: sc.pace, soldOut: make(chan struct{}), batched: sc.batched}
	if sc.redis != nil {
		s.rdb = sc.redis(t, s)
	} else {
		s.srv = dbtest.Redis(t)
		s.rdb = quickClient(t, s.srv.Addr())
	}
	opts := append([]Option{WithLockWait(2 * time.Second), WithMaxAttempts(3), WithMetrics(m)}, sc.opts...)
	s.dao = NewInventoryDAO(db, s.rdb, opts...)
	s.deduct = s.dao.DeductInventoryLocked
	if deduct != nil {
		s.deduct = deduct(s)
	}
	if sc.prepare != nil {
		sc.prepare(s)
	}

	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	var background sync.WaitGroup
	if s.pace > 0 {
		s.permits = make(chan struct{})
		background.Add(1)
		go func() { defer background.Done(); s.pacer(ctx) }()
	}
	if sc.fault != nil {
		background.Add(1)
		go func() { defer background.Done(); sc.fault(ctx, s) }()
	}
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() { defer wg.Done(); s.worker(withBuyer(ctx, i)) }()
	}
	wg.Wait()
	cancel()
	background.Wait()
	t.Logf("%s: %d attempts, %d sold, %d insufficient, retried %d conflicts, %d lock waits, %d lost locks; metrics %v",
		sc.name, s.attempts.Load(), s.succeeded.Load(), s.insufficient.Load(),
		s.conflicts.Load(), s.notAcquired.Load(), s.lost.Load(), m.snapshot())
	return s
}

// worker buys one unit: it retries conflicts and lock failures (nothing
// changed then) and stops at a sale or at ErrInsufficient.
func (s *sale) worker(ctx context.Context) {
	for {
		if s.permits != nil {
			select {
			case <-s.permits:
			case <-s.soldOut:
			case <-ctx.Done():
				s.t.Errorf("worker still retrying after %v", runTimeout)
				return
			}
		}
		s.attempts.Add(1)
		err := s.deduct(ctx, s.id, 1)
		switch {
		case err == nil:
			s.succeeded.Add(1)
			return
		case errors.Is(err, ErrInsufficient):
			s.insufficient.Add(1)
			s.sold.Do(func() { close(s.soldOut) })
			return
		case ctx.Err() != nil:
			s.t.Errorf("worker still retrying after %v: %v", runTimeout, err)
			return
		case errors.Is(err, ErrConflict):
			s.conflicts.Add(1)
		case errors.Is(err, ErrLockNotAcquired):
			s.notAcquired.Add(1)
		case errors.Is(err, ErrLockLost):
			s.lost.Add(1)
		default:
			s.t.Errorf("deduct: %v", err)
			return
		}
	}
}

// buyerKey carries the number of the worker whose call a context is.
type buyerKey struct{}

// withBuyer returns ctx naming worker i as the buyer.
func withBuyer(ctx context.Context, i int) context.Context {
	return context.WithValue(ctx, buyerKey{}, i)
}

// buyer returns the number of the worker whose call ctx is.
func buyer(ctx context.Context) int {
	i, _ := ctx.Value(buyerKey{}).(int)
	return i
}

// pacer hands out one permit per tick until the sale is sold out.
func (s *sale) pacer(ctx context.Context) {
	tick := time.NewTicker(s.pace)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.soldOut:
			return
		case <-tick.C:
		}
		if s.paused.Load() {
			continue
		}
		select {
		case s.permits <- struct{}{}:
		case <-ctx.Done():
			return
		case <-s.soldOut:
			return
		}
	}
}

// waitFor polls cond until it holds or ctx ends.
func waitFor(ctx context.Context, cond func() bool) bool {
	for !cond() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(2 * time.Millisecond):
		}
	}
	return true
}

// checkExact asserts the guard held: exactly stock sales, every other
// worker told ErrInsufficient, the row at 0 and its version moved once per
// sale (no write but the sales), or, when the sale's writes are batched, at
// least once and at most once per sale.
func checkExact(t *testing.T, s *sale) {
	t.Helper()
	left, version := row(t, s.db, s.id)
	versionOK := version == stock
	if s.batched {
		versionOK = version >= 1 && version <= stock
	}
	if s.succeeded.Load() != stock || s.insufficient.Load() != workers-stock || left != 0 || !versionOK {
		t.Errorf("sold %d (want %d), insufficient %d (want %d), row holds %d at version %d (want 0 at %s)",
			s.succeeded.Load(), stock, s.insufficient.Load(), workers-stock, left, version, wantVersion(s.batched))
	}
}

// wantVersion says which version checkExact wants.
func wantVersion(batched bool) string {
	if batched {
		return fmt.Sprintf("1 to %d", stock)
	}
	return fmt.Sprint(stock)
}

// everyNth returns a beforeWrite hook that sleeps d on every nth call.
func everyNth(n int64, d time.Duration) func(ctx context.Context) {
	var calls atomic.Int64
	return func(ctx context.Context) {
		if calls.Add(1)%n == 0 {
			time.Sleep(d)
		}
	}
}
