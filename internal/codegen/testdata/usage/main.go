// Command usage is written against DESIGN §7 alone, without looking at the
// generated code: it must compile unchanged against what guard gen writes.
package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"example.com/gencheck/inventorydao"
)

// counting is a Metrics that counts the compare-and-set outcomes.
type counting struct {
	inventorydao.NopMetrics
	cas map[inventorydao.CASResult]int
}

func (c *counting) CAS(table string, r inventorydao.CASResult) { c.cas[r]++ }

var _ inventorydao.Metrics = (*counting)(nil)

// The signatures of the contract, pinned.
var (
	_ func(*sqlx.DB, redis.UniversalClient, ...inventorydao.Option) *inventorydao.InventoryDAO = inventorydao.NewInventoryDAO
	_ func(time.Duration) inventorydao.Option                                                  = inventorydao.WithLockTTL
	_ func(time.Duration) inventorydao.Option                                                  = inventorydao.WithLockWait
	_ func(int) inventorydao.Option                                                            = inventorydao.WithMaxAttempts
	_ func(min, max time.Duration) inventorydao.Option                                         = inventorydao.WithBackoff
	_ func(inventorydao.Metrics) inventorydao.Option                                           = inventorydao.WithMetrics
	_ func(name string) inventorydao.Option                                                    = inventorydao.WithTable
	_ func(time.Duration) inventorydao.Option                                                  = inventorydao.WithMaxLease
)

func main() {
	ctx := context.Background()
	var db *sqlx.DB // sqlx.Open("mysql", dsn) in a real program
	var rdb redis.UniversalClient = redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:      []string{"127.0.0.1:26379"},
		MasterName: "mymaster", // Sentinel; a single address without it is one node
	})
	m := &counting{cas: map[inventorydao.CASResult]int{}}
	dao := inventorydao.NewInventoryDAO(db, rdb,
		inventorydao.WithLockTTL(3*time.Second),
		inventorydao.WithLockWait(500*time.Millisecond),
		inventorydao.WithMaxAttempts(3),
		inventorydao.WithBackoff(20*time.Millisecond, 100*time.Millisecond),
		inventorydao.WithMetrics(m),
		inventorydao.WithTable("t_inventory_07"), // a shard of t_inventory
	)

	var get func(context.Context, int64) (*inventorydao.Inventory, error) = dao.Get
	var deduct func(context.Context, int64, int64) error = dao.DeductInventory
	var deductLocked func(context.Context, int64, int64) error = dao.DeductInventoryLocked
	var update func(context.Context, *inventorydao.Inventory) error = dao.UpdateCAS
	var transition func(ctx context.Context, id int64, from, to string) error = dao.TransitionStatus

	// Version 2: lock → read → business logic → version CAS, and the same
	// in one transaction that also writes the order row.
	var updateLocked func(context.Context, int64, func(context.Context, *inventorydao.Inventory) error) error = dao.UpdateLocked
	var updateLockedTx func(context.Context, int64, func(context.Context, *sqlx.Tx, *inventorydao.Inventory) error) error = dao.UpdateLockedTx
	errLimit := errors.New("user limit reached")
	err := updateLocked(ctx, 1, func(ctx context.Context, m *inventorydao.Inventory) error {
		if m.Inventory < 2 {
			return errLimit
		}
		m.Inventory -= 2
		return nil
	})
	err = errors.Join(err, updateLockedTx(ctx, 1, func(ctx context.Context, tx *sqlx.Tx, m *inventorydao.Inventory) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO t_order (order_no, sku) VALUES (?, ?)", "o-1", m.SKU); err != nil {
			return err // a replay of o-1 comes back wrapping ErrDuplicate
		}
		m.Inventory--
		return nil
	}))
	if errors.Is(err, inventorydao.ErrDuplicate) || errors.Is(err, errLimit) {
		fmt.Println(err)
	}

	row, err := get(ctx, 1)
	if err != nil {
		fmt.Println(errors.Is(err, inventorydao.ErrNotFound))
		return
	}
	var id, version int64 = row.ID, row.Version
	row.Inventory += 10
	err = update(ctx, row)
	err = errors.Join(err, deduct(ctx, id, 1), deductLocked(ctx, id, 1), transition(ctx, id, "active", "sold_out"))
	for _, sentinel := range []error{
		inventorydao.ErrNotFound, inventorydao.ErrInsufficient, inventorydao.ErrConflict,
		inventorydao.ErrLockNotAcquired, inventorydao.ErrLockLost, inventorydao.ErrStateChanged,
		inventorydao.ErrDuplicate, inventorydao.ErrCheckViolated,
	} {
		if errors.Is(err, sentinel) {
			fmt.Println(sentinel)
		}
	}
	fresh := &inventorydao.Inventory{SKU: "sku-1", Inventory: 100, Status: "active"}
	if err := dao.Insert(ctx, fresh); err == nil {
		fmt.Println(fresh.ID, version, m.cas[inventorydao.CASOK])
	}
}
