package inventorydao

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// generatedStatements are every statement of the DAO, as generated.
var generatedStatements = []string{
	sqlInventoryGet, sqlInventoryExists, sqlInventoryInsert, sqlInventoryUpdateCAS,
	sqlInventoryReadInventory, sqlInventoryDeductInventory, sqlInventoryDeductInventoryCAS,
	sqlInventoryTransitionStatus,
}

// TestRebind checks that WithTable moves every statement, and only its
// table name, onto the other table; and that without it nothing changes.
func TestRebind(t *testing.T) {
	plain := NewInventoryDAO(nil, nil)
	shard := NewInventoryDAO(nil, nil, WithTable("t_inventory_07"))
	odd := NewInventoryDAO(nil, nil, WithTable("odd`name"))
	for _, q := range generatedStatements {
		if got := plain.stmts.Rebind(q); got != q {
			t.Errorf("without WithTable Rebind changed %q into %q", q, got)
		}
		want := strings.Replace(q, "`t_inventory`", "`t_inventory_07`", 1)
		if got := shard.stmts.Rebind(q); got != want {
			t.Errorf("Rebind(%q) = %q, want %q", q, got, want)
		}
		if got := odd.stmts.Rebind(q); !strings.Contains(got, "`odd``name`") || strings.Contains(got, "`t_inventory`") {
			t.Errorf("Rebind(%q) on odd`name = %q", q, got)
		}
	}
	// A statement not listed when the DAO was made is rewritten on the fly.
	q := "SELECT `sku` FROM `t_inventory` WHERE `id` = ?"
	if got, want := shard.stmts.Rebind(q), "SELECT `sku` FROM `t_inventory_07` WHERE `id` = ?"; got != want {
		t.Errorf("Rebind of an unlisted statement = %q, want %q", got, want)
	}
	if plain.table != "t_inventory" || shard.table != "t_inventory_07" || NewInventoryDAO(nil, nil, WithTable("")).table != "t_inventory" {
		t.Errorf("tables: %q, %q", plain.table, shard.table)
	}
	if got := shard.lock.key(7); got != "lock:t_inventory_07:7" {
		t.Errorf("lock key on the shard = %q, want lock:t_inventory_07:7", got)
	}
}

// TestWithTable runs every method on a shard and through a view of it: the
// rows change there, the generated table stays empty, the locks and errors
// name the table the DAO works on.
func TestWithTable(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	if _, err := db.Exec("CREATE TABLE t_inventory_07 LIKE t_inventory"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE VIEW t_inventory_07_v AS SELECT * FROM t_inventory_07"); err != nil {
		t.Fatal(err)
	}
	srv := dbtest.Redis(t)
	for _, table := range []string{"t_inventory_07", "t_inventory_07_v"} {
		t.Run(table, func(t *testing.T) {
			m := newRecorder()
			tables := map[string]bool{}
			d := NewInventoryDAO(db, srv.Client(), WithTable(table), WithMetrics(&tableRecorder{recorder: m, tables: tables}))
			row := &Inventory{SKU: "sku-" + table, Inventory: 5, Status: "active", Price: "1.00"}
			if err := d.Insert(ctx, row); err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				name string
				run  func() error
			}{
				{"deduct", func() error { return d.DeductInventory(ctx, row.ID, 1) }},
				{"deduct locked", func() error { return d.DeductInventoryLocked(ctx, row.ID, 1) }},
				{"transition", func() error { return d.TransitionStatus(ctx, row.ID, "active", "paused") }},
				{"update", func() error {
					got, err := d.Get(ctx, row.ID)
					if err != nil {
						return err
					}
					got.Inventory = 10
					return d.UpdateCAS(ctx, got)
				}},
			}
			for _, s := range steps {
				if err := s.run(); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
			}
			got, err := d.Get(ctx, row.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Inventory != 10 || got.Status != "paused" || got.Version != 4 {
				t.Errorf("row after the steps: inventory %d, status %q, version %d; want 10, paused, 4", got.Inventory, got.Status, got.Version)
			}
			err = d.DeductInventoryLocked(ctx, row.ID, 100)
			if !errors.Is(err, ErrInsufficient) || !strings.Contains(err.Error(), table+" ") {
				t.Errorf("deduct too much: %v, want ErrInsufficient naming %s", err, table)
			}
			if d := cmp.Diff(map[string]bool{table: true}, tables); d != "" {
				t.Errorf("metrics labelled with other tables (-want +got):\n%s", d)
			}
			if got := m.snapshot(); got["acquire_ok"] != 2 || got["release_ok"] != 2 {
				t.Errorf("locked deductions did not take and release their lock: %v", got)
			}
		})
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM t_inventory").Scan(&n); err != nil || n != 0 {
		t.Errorf("the generated table holds %d rows (err %v), want 0", n, err)
	}
}

// TestWithTableLockKey holds the lock of a row of the shard by hand: the
// locked deduction on the shard waits for it, the one on the generated
// table does not.
func TestWithTableLockKey(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	if _, err := db.Exec("CREATE TABLE t_inventory_07 LIKE t_inventory"); err != nil {
		t.Fatal(err)
	}
	rdb := dbtest.Redis(t).Client()
	shard := NewInventoryDAO(db, rdb, WithTable("t_inventory_07"), WithLockWait(50*time.Millisecond))
	plain := NewInventoryDAO(db, rdb, WithLockWait(50*time.Millisecond))
	for _, d := range []*InventoryDAO{shard, plain} {
		if err := d.Insert(ctx, &Inventory{SKU: "sku-lock", Inventory: 3, Status: "active", Price: "1.00"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rdb.Set(ctx, "lock:t_inventory_07:1", "someone-else", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if err := shard.DeductInventoryLocked(ctx, 1, 1); !errors.Is(err, ErrLockNotAcquired) {
		t.Errorf("shard deduction under a held lock: %v, want ErrLockNotAcquired", err)
	}
	if err := plain.DeductInventoryLocked(ctx, 1, 1); err != nil {
		t.Errorf("generated table's deduction: %v (the shard's lock must not block it)", err)
	}
}

// tableRecorder notes the table label of every event.
type tableRecorder struct {
	*recorder
	tables map[string]bool
}

func (r *tableRecorder) LockAcquire(table string, res LockAcquireResult) {
	r.note(table)
	r.recorder.LockAcquire(table, res)
}

func (r *tableRecorder) LockRelease(table string, res LockReleaseResult) {
	r.note(table)
	r.recorder.LockRelease(table, res)
}

func (r *tableRecorder) CAS(table string, res CASResult) {
	r.note(table)
	r.recorder.CAS(table, res)
}

func (r *tableRecorder) note(table string) {
	r.recorder.mu.Lock()
	defer r.recorder.mu.Unlock()
	r.tables[table] = true
}
