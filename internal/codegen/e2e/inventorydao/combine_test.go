package inventorydao

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// queued returns how many deductions wait in the queue of row id of the
// first counter.
func queued(d *InventoryDAO, id int64) int {
	d.combine.mu.Lock()
	defer d.combine.mu.Unlock()
	if q := d.combine.queues[combineKey{0, id}]; q != nil {
		return len(q.waiting)
	}
	return 0
}

// waitQueued waits until n deductions wait for row id.
func waitQueued(t *testing.T, d *InventoryDAO, id int64, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for queued(d, id) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d deductions queued for row %d, want %d", queued(d, id), id, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCombinedBatchThatDoesNotFit queues six deductions while another
// process holds the row's lock, so that they make one batch, in order. Their
// sum, 16, does not fit the stock of 10: each gets the outcome it would have
// had alone in that order (4, 3, then 5 refused, 2, 1, then 1 refused), in
// one write.
func TestCombinedBatchThatDoesNotFit(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	d := NewInventoryDAO(db, rdb, WithMetrics(m), WithLockWait(5*time.Second))
	id := insertRow(t, db, 10)
	key := d.lock.key(id)
	if err := rdb.Set(ctx, key, "another process", 10*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	amounts := []int64{4, 3, 5, 2, 1, 1}
	want := []error{nil, nil, ErrInsufficient, nil, nil, ErrInsufficient}
	got := make([]error, len(amounts))
	var wg sync.WaitGroup
	for i, n := range amounts {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = d.DeductInventoryLocked(ctx, id, n) }()
		waitQueued(t, d, id, i+1)
	}
	rdb.Del(ctx, key)
	wg.Wait()
	for i := range amounts {
		if !errors.Is(got[i], want[i]) || (want[i] == nil) != (got[i] == nil) {
			t.Errorf("deduction %d of %d: %v, want %v", i, amounts[i], got[i], want[i])
		}
	}
	if left, version := row(t, db, id); left != 0 || version != 1 {
		t.Errorf("row holds %d at version %d, want 0 at 1: one write of the four that fit", left, version)
	}
	if s := m.snapshot(); s["cas_ok"] != 4 || s["cas_insufficient"] != 2 || s["acquire_ok"] != 1 {
		t.Errorf("metrics %v, want 4 ok, 2 insufficient, one lock", s)
	}
}

// TestCombinedMixedAmounts: 300 workers deduct 1 to 5 units at random from
// a stock of 2,000 on two DAOs, in batches of at most 4, (two application nodes) while the lock keys are
// deleted under them: the units granted are exactly what the row lost, the
// row never goes negative, and no caller was refused while the row still
// held its amount at the end. The same sale with the naive read-modify-write
// of TestNaiveReadModifyWriteOversells loses units (shown there).
func TestCombinedMixedAmounts(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	db := newDB(t)
	srv := dbtest.Redis(t)
	rdb := quickClient(t, srv.Addr())
	m := newRecorder()
	opts := []Option{WithLockWait(2 * time.Second), WithMaxAttempts(5), WithCombine(4), WithMetrics(m)}
	nodes := []*InventoryDAO{NewInventoryDAO(db, rdb, opts...), NewInventoryDAO(db, rdb, opts...)}
	const total = 2000
	id := insertRow(t, db, total)
	faultCtx, stopFault := context.WithCancel(ctx)
	var fault sync.WaitGroup
	fault.Add(1)
	go func() {
		defer fault.Done()
		c := quickClient(t, srv.Addr())
		for faultCtx.Err() == nil {
			c.Del(faultCtx, nodes[0].lock.key(id))
			time.Sleep(time.Millisecond)
		}
	}()
	var granted, refusedMin atomic.Int64
	refusedMin.Store(1 << 62)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dao := nodes[w%len(nodes)]
			for {
				n := 1 + rand.Int64N(5)
				err := dao.DeductInventoryLocked(ctx, id, n)
				switch {
				case err == nil:
					granted.Add(n)
					continue
				case errors.Is(err, ErrInsufficient):
					for old := refusedMin.Load(); n < old && !refusedMin.CompareAndSwap(old, n); old = refusedMin.Load() {
					}
					return
				case errors.Is(err, ErrConflict), errors.Is(err, ErrLockNotAcquired):
					continue
				}
				t.Errorf("deduct %d: %v", n, err)
				return
			}
		}()
	}
	wg.Wait()
	stopFault()
	fault.Wait()
	left, version := row(t, db, id)
	t.Logf("granted %d units in %d writes, %d left; metrics %v", granted.Load(), version, left, m.snapshot())
	if m.snapshot()["cas_conflict"] == 0 {
		t.Errorf("no compare-and-set conflicted: the two nodes never raced (metrics %v)", m.snapshot())
	}
	if left < 0 || granted.Load() != total-left {
		t.Errorf("granted %d units, row holds %d of %d: want granted = %d", granted.Load(), left, total, total-left)
	}
	if left >= refusedMin.Load() {
		t.Errorf("a deduction of %d was refused, but the row still holds %d", refusedMin.Load(), left)
	}
}

// TestCombinedWaiterCancelled: a caller whose context ends while it waits in
// the queue gets its context's error and deducts nothing; the leader's own
// context ending does not fail the others.
func TestCombinedWaiterCancelled(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	rdb := dbtest.Redis(t).Client()
	d := NewInventoryDAO(db, rdb, WithLockWait(5*time.Second))
	id := insertRow(t, db, 10)
	key := d.lock.key(id)
	if err := rdb.Set(ctx, key, "another process", 10*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	leaderCtx, cancelLeader := context.WithCancel(ctx)
	waiterCtx, cancelWaiter := context.WithCancel(ctx)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i, c := range []context.Context{leaderCtx, waiterCtx, ctx} {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = d.DeductInventoryLocked(c, id, 2) }()
		waitQueued(t, d, id, i+1)
	}
	cancelWaiter()
	waitQueued(t, d, id, 2)
	cancelLeader()
	waitQueued(t, d, id, 1)
	rdb.Del(ctx, key)
	wg.Wait()
	if !errors.Is(errs[0], context.Canceled) || !errors.Is(errs[1], context.Canceled) || errs[2] != nil {
		t.Errorf("leader %v, cancelled waiter %v, third %v: want canceled, canceled, nil", errs[0], errs[1], errs[2])
	}
	if left, _ := row(t, db, id); left != 8 {
		t.Errorf("row holds %d, want 8: only the third deducted", left)
	}
}

// TestCombineOffTakesTheLockPerCall: WithCombine(1) is the deduction of one
// call per lock, as before combining: the version moves once per sale.
func TestCombineOffTakesTheLockPerCall(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	d := NewInventoryDAO(db, rdb, WithCombine(1), WithMetrics(m))
	if d.combine != nil {
		t.Fatal("WithCombine(1) left combining on")
	}
	id := insertRow(t, db, 20)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := d.DeductInventoryLocked(ctx, id, 1); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if left, version := row(t, db, id); left != 0 || version != 20 {
		t.Errorf("row holds %d at version %d, want 0 at 20", left, version)
	}
	if s := m.snapshot(); s["acquire_ok"] != 20 {
		t.Errorf("metrics %v, want 20 locks taken", s)
	}
}

// TestCombinedBesideUpdateLocked sells through both locked paths of one DAO
// at once: half the workers deduct with Deduct…Locked, combined, and half
// with UpdateLocked's read-decide-write, all on one row and one lock, while
// the lock keys are deleted under them. Exactly the stock is sold, and the
// row ends at 0.
func TestCombinedBesideUpdateLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	sc := lockKeysDeleted()
	sc.name = "combined beside UpdateLocked, " + sc.name
	sc.batched = true
	s := runSale(t, sc, func(s *sale) func(ctx context.Context, id, n int64) error {
		update := lockedSale(s)
		return func(ctx context.Context, id, n int64) error {
			if buyer(ctx)%2 == 0 {
				return update(ctx, id, n)
			}
			return s.dao.DeductInventoryLocked(ctx, id, n)
		}
	})
	checkExact(t, s)
	if sc.after != nil {
		sc.after(t, s)
	}
}
