package inventorydao

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestMaxLeaseDefault: the lease is 10 times the TTL unless WithMaxLease
// sets it; a non-positive d keeps the default.
func TestMaxLeaseDefault(t *testing.T) {
	for _, tt := range []struct {
		opts []Option
		want time.Duration
	}{
		{nil, 10 * DefaultLockTTL},
		{[]Option{WithLockTTL(time.Second)}, 10 * time.Second},
		{[]Option{WithMaxLease(time.Minute), WithLockTTL(time.Second)}, time.Minute},
		{[]Option{WithMaxLease(0)}, 10 * DefaultLockTTL},
		{[]Option{WithMaxLease(-time.Second)}, 10 * DefaultLockTTL},
	} {
		if got := NewInventoryDAO(nil, nil, tt.opts...).lock.lease; got != tt.want {
			t.Errorf("lease = %v, want %v", got, tt.want)
		}
	}
}

// TestMaxLeaseCancelsHungHolder: a holder whose work hangs is cancelled
// with ErrLockLost once its lease runs out, although Redis would renew the
// lock forever; nothing is written. One that ignores its context keeps
// the row no longer than the lease and the TTL: the next caller of the
// same process gets the lock meanwhile, and the hung holder's late write
// is not sent.
func TestMaxLeaseCancelsHungHolder(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	rdb := dbtest.Redis(t).Client()
	const (
		// A TTL that a renewal delayed by a loaded machine still beats,
		// so that the lease, not a failed renewal, ends the work.
		ttl   = 300 * time.Millisecond
		lease = 400 * time.Millisecond
	)
	m := newRecorder()
	d := NewInventoryDAO(db, rdb, WithLockTTL(ttl), WithMaxLease(lease), WithLockWait(5*time.Second), WithMetrics(m))
	id := insertRow(t, db, 10)

	start := time.Now()
	err := d.UpdateLockedTx(ctx, id, func(ctx context.Context, tx *sqlx.Tx, row *Inventory) error {
		row.Inventory = 0
		<-ctx.Done() // hangs until cancelled
		return ctx.Err()
	})
	took := time.Since(start)
	if !errors.Is(err, ErrLockLost) || !errors.Is(err, context.Canceled) {
		t.Errorf("hung holder: %v, want ErrLockLost", err)
	}
	if took < lease || took > lease+5*time.Second {
		t.Errorf("hung holder cancelled after %v, want about the %v lease", took, lease)
	}
	if left, version := row(t, db, id); left != 10 || version != 0 {
		t.Errorf("row holds %d at version %d, want 10 at 0: the hung holder wrote", left, version)
	}
	if got := m.snapshot(); got["renew_failed"] != 1 {
		t.Errorf("metrics = %v, want one renew failure (the lease)", got)
	}

	// A holder that ignores its context, until the next caller is served
	// (or 10s pass).
	hung := make(chan error, 1)
	inFn, served := make(chan struct{}), make(chan struct{})
	go func() {
		hung <- d.UpdateLocked(ctx, id, func(_ context.Context, row *Inventory) error {
			close(inFn)
			select {
			case <-served:
			case <-time.After(10 * time.Second):
			}
			row.Inventory = 0
			return nil
		})
	}()
	<-inFn
	err = d.UpdateLocked(ctx, id, func(_ context.Context, row *Inventory) error {
		row.Inventory--
		return nil
	})
	select {
	case err := <-hung:
		t.Fatalf("the next caller was served only after the hung holder returned (%v)", err)
	default:
	}
	close(served)
	if err != nil {
		t.Fatalf("update behind a hung holder: %v", err)
	}
	if err := <-hung; !errors.Is(err, ErrLockLost) {
		t.Errorf("hung holder that ignored its context: %v, want ErrLockLost", err)
	}
	if left, version := row(t, db, id); left != 9 || version != 1 {
		t.Errorf("row holds %d at version %d, want 9 at 1: only the next caller's write", left, version)
	}
}
