package inventorydao

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

func TestGetInsert(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	d := NewInventoryDAO(db, nil)
	restocked := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	m := &Inventory{SKU: "sku-get", Inventory: 7, Status: "active", Price: "12.50",
		Note: sql.NullString{String: "fragile", Valid: true}, RestockedAt: sql.NullTime{Time: restocked, Valid: true}}
	if err := d.Insert(ctx, m); err != nil {
		t.Fatal(err)
	}
	if m.ID == 0 {
		t.Fatal("Insert did not set the AUTO_INCREMENT id")
	}
	got, err := d.Get(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.CreatedAt.IsZero() {
		t.Error("created_at was not filled by the server default")
	}
	m.CreatedAt = got.CreatedAt
	if d := cmp.Diff(m, got); d != "" {
		t.Errorf("Get differs from what Insert wrote (-inserted +read):\n%s", d)
	}
	if _, err := d.Get(ctx, m.ID+1000); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get of a missing row: %v, want ErrNotFound", err)
	}
}

// TestDeductions runs both deductions on one row: success, insufficient,
// not found, a non-positive amount; and the metrics they report.
func TestDeductions(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	rdb := dbtest.Redis(t).Client()
	for _, locked := range []bool{false, true} {
		name := map[bool]string{false: "guarded UPDATE", true: "lock and CAS"}[locked]
		t.Run(name, func(t *testing.T) {
			m := newRecorder()
			d := NewInventoryDAO(db, rdb, WithMetrics(m))
			deduct := d.DeductInventory
			if locked {
				deduct = d.DeductInventoryLocked
			}
			id := insertRow(t, db, 5)
			steps := []struct {
				id, n   int64
				want    error
				left    int64
				version int64
			}{
				{id, 3, nil, 2, 1},
				{id, 3, ErrInsufficient, 2, 1},
				{id, 2, nil, 0, 2},
				{id, 1, ErrInsufficient, 0, 2},
				{id + 1000, 1, ErrNotFound, 0, 2},
			}
			for i, s := range steps {
				err := deduct(ctx, s.id, s.n)
				if !errors.Is(err, s.want) || (s.want == nil) != (err == nil) {
					t.Fatalf("step %d: deduct %d from %d: %v, want %v", i, s.n, s.id, err, s.want)
				}
				if left, version := row(t, db, id); left != s.left || version != s.version {
					t.Fatalf("step %d: row holds %d at version %d, want %d at %d", i, left, version, s.left, s.version)
				}
			}
			if err := deduct(ctx, id, 0); err == nil {
				t.Error("deduct of 0 succeeded, want an error")
			}
			want := map[string]int{"renew_failed": 0, "cas_ok": 2, "cas_insufficient": 2, "cas_not_found": 1}
			if locked {
				want["acquire_ok"], want["release_ok"] = 5, 5
			}
			if d := cmp.Diff(want, m.snapshot()); d != "" {
				t.Errorf("metrics (-want +got):\n%s", d)
			}
		})
	}
}

func TestUpdateCAS(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	d := NewInventoryDAO(db, nil)
	id := insertRow(t, db, 10)
	a, err := d.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	b := *a // a second writer that read the same version

	a.Inventory, a.Status = 4, "paused"
	if err := d.UpdateCAS(ctx, a); err != nil {
		t.Fatal(err)
	}
	if a.Version != 1 {
		t.Errorf("version after UpdateCAS = %d, want 1", a.Version)
	}
	b.Inventory = 99
	if err := d.UpdateCAS(ctx, &b); !errors.Is(err, ErrConflict) {
		t.Errorf("stale UpdateCAS: %v, want ErrConflict", err)
	}
	if got, _ := d.Get(ctx, id); got.Inventory != 4 || got.Status != "paused" || got.Version != 1 {
		t.Errorf("row = %+v, want the first write only", got)
	}
	// The CHECK is the last line: a negative counter is refused by the server.
	a.Inventory = -1
	var me *mysql.MySQLError
	if err := d.UpdateCAS(ctx, a); !errors.As(err, &me) || (me.Number != 4025 && me.Number != 3819) {
		t.Errorf("UpdateCAS to -1: %v, want the CHECK violation (4025 or 3819)", err)
	}
	gone := *a
	gone.ID += 1000
	if err := d.UpdateCAS(ctx, &gone); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateCAS of a missing row: %v, want ErrNotFound", err)
	}
}

func TestTransitionStatus(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	d := NewInventoryDAO(db, nil)
	id := insertRow(t, db, 1)
	if err := d.TransitionStatus(ctx, id, "active", "paused"); err != nil {
		t.Fatal(err)
	}
	if err := d.TransitionStatus(ctx, id, "active", "sold_out"); !errors.Is(err, ErrStateChanged) {
		t.Errorf("transition from a state the row left: %v, want ErrStateChanged", err)
	}
	if err := d.TransitionStatus(ctx, id+1000, "active", "paused"); !errors.Is(err, ErrNotFound) {
		t.Errorf("transition of a missing row: %v, want ErrNotFound", err)
	}
	if got, _ := d.Get(ctx, id); got.Status != "paused" || got.Version != 1 {
		t.Errorf("row = %+v, want paused at version 1", got)
	}
}

// TestLockedDeductionFailures: a lock held elsewhere beyond the wait, a
// context that ends while waiting (its own error, not a lock failure), and
// a Redis that is down (the deduction goes on unlocked and succeeds).
func TestLockedDeductionFailures(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	srv := dbtest.Redis(t)
	rdb := quickClient(t, srv.Addr())
	id := insertRow(t, db, 10)
	m := newRecorder()
	d := NewInventoryDAO(db, rdb, WithLockWait(100*time.Millisecond), WithMetrics(m))
	if err := rdb.Set(ctx, d.lock.key(id), "someone-else", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if err := d.DeductInventoryLocked(ctx, id, 1); !errors.Is(err, ErrLockNotAcquired) {
		t.Errorf("deduct under another's lock: %v, want ErrLockNotAcquired", err)
	}
	patient := NewInventoryDAO(db, rdb, WithLockWait(time.Minute))
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if err := patient.DeductInventoryLocked(short, id, 1); !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrLockNotAcquired) {
		t.Errorf("deduct with an ending context: %v, want the context's error", err)
	}

	srv.Stop()
	if err := d.DeductInventoryLocked(ctx, id, 1); err != nil {
		t.Errorf("deduct with Redis down: %v, want success without the lock", err)
	}
	if left, _ := row(t, db, id); left != 9 {
		t.Errorf("row holds %d, want 9", left)
	}
	if got := m.snapshot(); got["acquire_taken"] != 1 || got["acquire_error"] != 1 || got["cas_ok"] != 1 {
		t.Errorf("metrics = %v, want acquire taken 1, error 1, cas ok 1", got)
	}
}

// TestConflictRetriesThenErrConflict: a writer that bumps the version
// between every read and write makes each attempt conflict; the deduction
// gives up after the maximum attempts with ErrConflict and changes nothing.
func TestConflictRetriesThenErrConflict(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	id := insertRow(t, db, 10)
	m := newRecorder()
	d := NewInventoryDAO(db, dbtest.Redis(t).Client(), WithMaxAttempts(4), WithBackoff(time.Millisecond, 5*time.Millisecond), WithMetrics(m))
	other := NewInventoryDAO(db, nil)
	writes := 0
	d.beforeWrite = func(ctx context.Context) {
		writes++
		if err := other.TransitionStatus(ctx, id, "active", "active"); err != nil {
			t.Error(err)
		}
	}
	if err := d.DeductInventoryLocked(ctx, id, 1); !errors.Is(err, ErrConflict) {
		t.Fatalf("deduct against a writer that always wins: %v, want ErrConflict", err)
	}
	if writes != 4 {
		t.Errorf("%d attempts, want 4", writes)
	}
	if left, version := row(t, db, id); left != 10 || version != 4 {
		t.Errorf("row holds %d at version %d, want 10 at 4 (only the other writer's bumps)", left, version)
	}
	if got := m.snapshot(); got["cas_conflict"] != 4 || got["cas_ok"] != 0 {
		t.Errorf("metrics = %v, want 4 conflicts", got)
	}
}
