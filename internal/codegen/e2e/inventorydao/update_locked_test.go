package inventorydao

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"

	"github.com/guard-sql/guard/internal/dbtest"
)

// lockedUpdate is UpdateLocked or UpdateLockedTx seen through one
// signature: tx is nil for UpdateLocked.
type lockedUpdate func(d *InventoryDAO, ctx context.Context, id int64, fn func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error) error

var lockedUpdates = []struct {
	name   string
	update lockedUpdate
}{
	{"UpdateLocked", func(d *InventoryDAO, ctx context.Context, id int64, fn func(context.Context, *sqlx.Tx, *Inventory) error) error {
		return d.UpdateLocked(ctx, id, func(ctx context.Context, m *Inventory) error { return fn(ctx, nil, m) })
	}},
	{"UpdateLockedTx", func(d *InventoryDAO, ctx context.Context, id int64, fn func(context.Context, *sqlx.Tx, *Inventory) error) error {
		return d.UpdateLockedTx(ctx, id, fn)
	}},
}

// TestUpdateLocked: fn's change is written with the version bumped once;
// fn's own error comes back as it is with nothing written; a missing row
// is ErrNotFound without calling fn; a duplicate key and a CHECK refused
// by the server are ErrDuplicate and ErrCheckViolated, not retried; every
// attempt reads the row afresh, and conflicts end in ErrConflict after the
// maximum attempts.
func TestUpdateLocked(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	rdb := dbtest.Redis(t).Client()
	for _, u := range lockedUpdates {
		t.Run(u.name, func(t *testing.T) {
			m := newRecorder()
			d := NewInventoryDAO(db, rdb, WithMaxAttempts(3), WithBackoff(time.Millisecond, 2*time.Millisecond), WithMetrics(m))
			id := insertRow(t, db, 10)
			calls := 0
			err := u.update(d, ctx, id, func(ctx context.Context, _ *sqlx.Tx, row *Inventory) error {
				calls++
				if n, _ := rdb.Exists(ctx, d.lock.key(id)).Result(); n != 1 {
					t.Errorf("fn runs without the row's lock")
				}
				row.Inventory -= 3
				row.Note = sql.NullString{String: "three sold", Valid: true}
				row.Version = 77 // ignored: the CAS uses the version read
				return nil
			})
			if err != nil || calls != 1 {
				t.Fatalf("update: %v after %d calls, want success after 1", err, calls)
			}
			got, err := d.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got.Inventory != 7 || got.Note.String != "three sold" || got.Version != 1 {
				t.Errorf("row = %+v, want 7, the note, version 1", got)
			}

			abort := errors.New("coupon already used")
			if err := u.update(d, ctx, id, func(_ context.Context, _ *sqlx.Tx, row *Inventory) error {
				row.Inventory = 0
				return abort
			}); err != abort {
				t.Errorf("fn's error came back as %v, want it as it is", err)
			}
			if left, version := row(t, db, id); left != 7 || version != 1 {
				t.Errorf("after fn's error the row holds %d at version %d, want 7 at 1", left, version)
			}

			called := false
			if err := u.update(d, ctx, id+1000, func(context.Context, *sqlx.Tx, *Inventory) error {
				called = true
				return nil
			}); !errors.Is(err, ErrNotFound) || called {
				t.Errorf("update of a missing row: %v (fn called: %v), want ErrNotFound without calling fn", err, called)
			}

			other := insertRow(t, db, 1)
			otherSKU := ""
			if err := db.Get(&otherSKU, "SELECT sku FROM t_inventory WHERE id = ?", other); err != nil {
				t.Fatal(err)
			}
			calls = 0
			err = u.update(d, ctx, id, func(_ context.Context, _ *sqlx.Tx, row *Inventory) error {
				calls++
				row.SKU = otherSKU
				return nil
			})
			var me *mysql.MySQLError
			if !errors.Is(err, ErrDuplicate) || !errors.As(err, &me) || me.Number != 1062 || calls != 1 {
				t.Errorf("update to a taken sku: %v after %d calls, want ErrDuplicate (1062) after 1", err, calls)
			}
			err = u.update(d, ctx, id, func(_ context.Context, _ *sqlx.Tx, row *Inventory) error {
				row.Inventory = -1
				return nil
			})
			if !errors.Is(err, ErrCheckViolated) || errors.Is(err, ErrDuplicate) {
				t.Errorf("update to -1: %v, want ErrCheckViolated", err)
			}
			if left, version := row(t, db, id); left != 7 || version != 1 {
				t.Errorf("after refused writes the row holds %d at version %d, want 7 at 1", left, version)
			}

			// A writer that wins every race: each attempt reads afresh (fn
			// sees the version move) and the third conflict is final.
			var seen []int64
			d.beforeWrite = func(ctx context.Context) {
				if _, err := db.ExecContext(ctx, "UPDATE t_inventory SET version = version + 1 WHERE id = ?", id); err != nil {
					t.Error(err)
				}
			}
			err = u.update(d, ctx, id, func(_ context.Context, _ *sqlx.Tx, row *Inventory) error {
				seen = append(seen, row.Version)
				row.Inventory--
				return nil
			})
			d.beforeWrite = nil
			if !errors.Is(err, ErrConflict) || fmt.Sprint(seen) != "[1 2 3]" {
				t.Errorf("update against a writer that always wins: %v, fn saw versions %v; want ErrConflict after reads of 1, 2, 3", err, seen)
			}
			if left, _ := row(t, db, id); left != 7 {
				t.Errorf("row holds %d after the conflicts, want 7", left)
			}
			if got := m.snapshot(); got["cas_ok"] != 1 || got["cas_conflict"] != 3 || got["cas_not_found"] != 1 {
				t.Errorf("metrics = %v, want cas ok 1, conflict 3, not found 1", got)
			}
		})
	}
}

// TestUpdateLockedTx: fn's writes commit with the row, before the lock is
// released; fn's error and a conflict roll them back; a duplicate in fn's
// own INSERT is ErrDuplicate and not retried.
func TestUpdateLockedTx(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	if _, err := db.Exec(createOrders); err != nil {
		t.Fatal(err)
	}
	rdb := dbtest.Redis(t).Client()
	id := insertRow(t, db, 10)
	release := &releaseProbe{db: db, id: id}
	d := NewInventoryDAO(db, rdb, WithMaxAttempts(2), WithBackoff(time.Millisecond, 2*time.Millisecond), WithMetrics(release))

	if err := d.UpdateLockedTx(ctx, id, buyWithOrder("o-1", 2)); err != nil {
		t.Fatal(err)
	}
	if release.versions != "1" {
		t.Errorf("the row's version seen at the lock's release: %q, want 1 (committed before the release)", release.versions)
	}
	checkOrders(t, db, 1)

	abort := errors.New("user limit reached")
	err := d.UpdateLockedTx(ctx, id, func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error {
		if err := buyWithOrder("o-2", 1)(ctx, tx, m); err != nil {
			return err
		}
		return abort
	})
	if err != abort {
		t.Errorf("fn's error came back as %v, want it as it is", err)
	}
	checkOrders(t, db, 1)

	calls := 0
	d.beforeWrite = func(ctx context.Context) {
		if _, err := db.ExecContext(ctx, "UPDATE t_inventory SET version = version + 1 WHERE id = ?", id); err != nil {
			t.Error(err)
		}
	}
	err = d.UpdateLockedTx(ctx, id, func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error {
		calls++
		return buyWithOrder("o-3", 1)(ctx, tx, m)
	})
	d.beforeWrite = nil
	if !errors.Is(err, ErrConflict) || calls != 2 {
		t.Errorf("conflicting update: %v after %d calls, want ErrConflict after 2 (the order row rolled back each time)", err, calls)
	}
	checkOrders(t, db, 1)

	calls = 0
	err = d.UpdateLockedTx(ctx, id, func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error {
		calls++
		return buyWithOrder("o-1", 2)(ctx, tx, m)
	})
	var me *mysql.MySQLError
	if !errors.Is(err, ErrDuplicate) || !errors.As(err, &me) || calls != 1 {
		t.Errorf("replay of o-1: %v after %d calls, want ErrDuplicate after 1", err, calls)
	}
	if left, _ := row(t, db, id); left != 8 {
		t.Errorf("row holds %d, want 8 (one sale of 2)", left)
	}
	checkOrders(t, db, 1)
}

// releaseProbe is a Metrics that reads the row's version, on its own
// connection, each time a lock is released.
type releaseProbe struct {
	NopMetrics
	db       *sqlx.DB
	id       int64
	versions string
}

func (p *releaseProbe) LockRelease(string, LockReleaseResult) {
	var v int64
	if err := p.db.QueryRow("SELECT version FROM t_inventory WHERE id = ?", p.id).Scan(&v); err != nil {
		p.versions += "error "
		return
	}
	if p.versions != "" {
		return
	}
	p.versions = fmt.Sprint(v)
}

// TestServerErrorsMapped: the DAO's own writes map 1062 and the CHECK's
// number too.
func TestServerErrorsMapped(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	d := NewInventoryDAO(db, nil)
	id := insertRow(t, db, 3)
	m, err := d.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	dup := *m
	if err := d.Insert(ctx, &dup); !errors.Is(err, ErrDuplicate) {
		t.Errorf("Insert of a taken sku: %v, want ErrDuplicate", err)
	}
	m.Inventory = -2
	if err := d.UpdateCAS(ctx, m); !errors.Is(err, ErrCheckViolated) {
		t.Errorf("UpdateCAS to -2: %v, want ErrCheckViolated", err)
	}
	for _, tt := range []struct {
		err  error
		want error
	}{
		{&mysql.MySQLError{Number: 1062}, ErrDuplicate},
		{fmt.Errorf("insert: %w", &mysql.MySQLError{Number: 3819}), ErrCheckViolated},
		{errors.Join(errors.New("x"), &mysql.MySQLError{Number: 4025}), ErrCheckViolated},
		{numbered(1062), ErrDuplicate},
		{&mysql.MySQLError{Number: 1690}, nil},
		{errors.New("Error 1062: Duplicate entry"), nil},
	} {
		got := mapServerError(tt.err)
		if tt.want == nil {
			if got != tt.err {
				t.Errorf("mapServerError(%v) = %v, want it unchanged", tt.err, got)
			}
			continue
		}
		if !errors.Is(got, tt.want) || !errors.Is(got, tt.err) {
			t.Errorf("mapServerError(%v) = %v, want %v wrapping it", tt.err, got, tt.want)
		}
	}
}

// numbered is a driver error that reports its number through a method.
type numbered uint16

func (n numbered) Error() string  { return fmt.Sprintf("server error %d", uint16(n)) }
func (n numbered) Number() uint16 { return uint16(n) }
