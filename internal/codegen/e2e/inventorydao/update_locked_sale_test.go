package inventorydao

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// The order rows of the sales through UpdateLockedTx: one per sale, its
// order number UNIQUE, so that a request served twice is refused.
const (
	createOrders = `CREATE TABLE t_sale_order (
  id BIGINT NOT NULL AUTO_INCREMENT,
  order_no VARCHAR(64) NOT NULL,
  inventory_id BIGINT NOT NULL,
  quantity INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_sale_order_no (order_no)
) ENGINE=InnoDB`
	insertOrder = "INSERT INTO t_sale_order (order_no, inventory_id, quantity) VALUES (?, ?, ?)"
	countOrders = "SELECT COUNT(*) FROM t_sale_order"
)

// TestUpdateLockedSoldExactlyOnce runs the sale of TestSoldExactlyOnce
// through the seed's pattern: under the lock, read the row, decide in Go,
// write with the version compare-and-set. Through UpdateLockedTx each sale
// also inserts its order row in the same transaction, and each buyer
// replays its request once served: exactly stock sales, stock order rows,
// the row at 0, every replay refused with ErrDuplicate — whatever Redis
// does meanwhile.
func TestUpdateLockedSoldExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	for _, sc := range []scenario{
		{name: "no fault"},
		flushAllEvery(5 * time.Millisecond),
		lockKeysDeleted(),
		redisRestarted(),
	} {
		t.Run("UpdateLockedTx/"+sc.name, func(t *testing.T) {
			var replays *replayCount
			s := runSale(t, sc, func(s *sale) func(ctx context.Context, id, n int64) error {
				f, r := orderSale(s)
				replays = r
				return f
			})
			checkExact(t, s)
			checkOrders(t, s.db, stock)
			if got := replays.refused.Load(); got != stock {
				t.Errorf("%d replays refused with ErrDuplicate, want %d", got, stock)
			}
			if sc.after != nil {
				sc.after(t, s)
			}
		})
		t.Run("UpdateLocked/"+sc.name, func(t *testing.T) {
			s := runSale(t, sc, lockedSale)
			checkExact(t, s)
			if sc.after != nil {
				sc.after(t, s)
			}
		})
	}
}

// lockedSale buys through UpdateLocked: fn refuses when the row holds too
// little, else takes n.
func lockedSale(s *sale) func(ctx context.Context, id, n int64) error {
	return func(ctx context.Context, id, n int64) error {
		return s.dao.UpdateLocked(ctx, id, func(_ context.Context, m *Inventory) error {
			if m.Inventory < n {
				return ErrInsufficient
			}
			m.Inventory -= n
			return nil
		})
	}
}

// replayCount counts the replays refused as duplicates.
type replayCount struct{ refused atomic.Int64 }

// orderSale buys through UpdateLockedTx with an order row per buyer, and
// replays every request it served: the replay must be refused with
// ErrDuplicate and change nothing.
func orderSale(s *sale) (func(ctx context.Context, id, n int64) error, *replayCount) {
	if _, err := s.db.Exec(createOrders); err != nil {
		s.t.Fatal(err)
	}
	r := &replayCount{}
	return func(ctx context.Context, id, n int64) error {
		orderNo := fmt.Sprintf("order-%d", buyer(ctx))
		err := s.dao.UpdateLockedTx(ctx, id, buyWithOrder(orderNo, n))
		if err != nil {
			return err
		}
		for {
			err := s.dao.UpdateLockedTx(ctx, id, buyWithOrder(orderNo, n))
			if errors.Is(err, ErrConflict) || errors.Is(err, ErrLockNotAcquired) || errors.Is(err, ErrLockLost) {
				continue
			}
			if !errors.Is(err, ErrDuplicate) {
				s.t.Errorf("replay of %s: %v, want ErrDuplicate", orderNo, err)
				return nil
			}
			r.refused.Add(1)
			return nil
		}
	}, r
}

// buyWithOrder is the business logic of one request: claim its order
// number first (a replay stops there), then take n when the row holds it.
func buyWithOrder(orderNo string, n int64) func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error {
	return func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error {
		if _, err := tx.ExecContext(ctx, insertOrder, orderNo, m.ID, n); err != nil {
			return err
		}
		if m.Inventory < n {
			return ErrInsufficient
		}
		m.Inventory -= n
		return nil
	}
}

// checkOrders asserts the table holds want order rows.
func checkOrders(t *testing.T, db *sqlx.DB, want int) {
	t.Helper()
	var n int
	if err := db.QueryRow(countOrders).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("%d order rows, want %d", n, want)
	}
}

// TestNaiveOrderSaleOversells runs the order sale with the read-modify-
// write most code does inside its transaction under a Redis lock: read the
// stock, check it, write the computed value. When the lock expires under
// a slow holder, two transactions read the same stock and both sell, and
// both order rows commit: more orders than stock. The harness of
// TestUpdateLockedSoldExactlyOnce catches an oversell.
func TestNaiveOrderSaleOversells(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	sc := scenario{
		name: "naive read-modify-write in a transaction, lock expiring under the work",
		opts: []Option{WithLockTTL(15 * time.Millisecond)},
		prepare: func(s *sale) {
			s.dao.lock.noWatchdog = true
			s.dao.beforeWrite = everyNth(1, 30*time.Millisecond)
		},
	}
	s := runSale(t, sc, naiveOrderSale)
	var orders int
	if err := s.db.QueryRow(countOrders).Scan(&orders); err != nil {
		t.Fatal(err)
	}
	if s.succeeded.Load() <= stock || orders <= stock {
		t.Errorf("naive sale: %d sales and %d order rows for %d units: want an oversell, or the harness cannot catch one",
			s.succeeded.Load(), orders, stock)
	}
}

// naiveOrderSale is the naive read-modify-write with the order row in one
// transaction, under a Redis lock of a locker of its own per call (as if
// each buyer were a process of its own; see naiveDeduct).
func naiveOrderSale(s *sale) func(ctx context.Context, id, n int64) error {
	if _, err := s.db.Exec(createOrders); err != nil {
		s.t.Fatal(err)
	}
	return func(ctx context.Context, id, n int64) error {
		l := newLocker(s.rdb, s.dao.table, s.dao.opts)
		l.noWatchdog = s.dao.lock.noWatchdog
		lock, err := l.acquire(ctx, l.key(id))
		if err != nil {
			return err
		}
		if lock != nil {
			defer lock.release()
		}
		tx, err := s.db.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, insertOrder, fmt.Sprintf("order-%d", buyer(ctx)), id, n); err != nil {
			return err
		}
		var have int64
		if err := tx.QueryRowContext(ctx, naiveRead, id).Scan(&have); err != nil {
			return err
		}
		if have < n {
			return ErrInsufficient
		}
		s.dao.beforeWrite(ctx)
		if _, err := tx.ExecContext(ctx, naiveWrite, have-n, id); err != nil {
			return err
		}
		return tx.Commit()
	}
}
