package inventorydao

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestSoldExactlyOnce is the proof of the generated locked deduction: 300
// buyers, 100 units, and whatever happens to Redis meanwhile exactly 100
// sales succeed and the row ends at 0.
func TestSoldExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	for _, sc := range []scenario{
		{name: "no fault"},
		flushAllEvery(2 * time.Millisecond),
		lockKeysDeleted(),
		redisRestarted(),
		{
			name:  "Sentinel failover mid-run",
			pace:  3 * time.Millisecond,
			redis: sentinelClient,
			fault: sentinelFailover,
			after: func(t *testing.T, s *sale) {
				if got := s.m.snapshot(); got["acquire_error"] == 0 || got["acquire_ok"] == 0 {
					t.Errorf("locks not both failed and taken: the failover was not mid-run (metrics %v)", got)
				}
			},
		},
		{
			name: "lock TTL shorter than the work, watchdog renewing",
			opts: []Option{WithLockTTL(30 * time.Millisecond)},
			prepare: func(s *sale) {
				s.dao.beforeWrite = everyNth(5, 60*time.Millisecond)
			},
		},
		{
			name: "lock expiring under the work",
			opts: []Option{WithLockTTL(20 * time.Millisecond)},
			prepare: func(s *sale) {
				s.dao.lock.noWatchdog = true
				s.dao.beforeWrite = everyNth(3, 40*time.Millisecond)
			},
			after: func(t *testing.T, s *sale) {
				if got := s.m.snapshot(); got["release_expired"]+got["release_not_owner"] == 0 {
					t.Errorf("no lock expired under its holder (metrics %v)", got)
				}
			},
		},
	} {
		for _, mode := range combineModes {
			t.Run(mode.name+"/"+sc.name, func(t *testing.T) {
				sc := sc
				sc.opts = append(append([]Option{}, mode.opts...), sc.opts...)
				sc.batched = mode.batched
				s := runSale(t, sc, nil)
				checkExact(t, s)
				if sc.after != nil {
					sc.after(t, s)
				}
				if mode.batched && sc.fault == nil && sc.prepare == nil {
					if _, version := row(t, s.db, s.id); version >= stock {
						t.Errorf("version moved %d times for %d sales: nothing was combined", version, stock)
					}
				}
			})
		}
	}
}

// combineModes are the two ways the locked deduction runs: each call on its
// own (WithCombine(1)), and the calls of one row combined in batches. The
// batches are kept small so that a sale of 100 takes many batches and
// several holds of the lock, and each fault meets a combined sale under
// way.
var combineModes = []struct {
	name    string
	opts    []Option
	batched bool
}{
	{name: "one by one", opts: []Option{WithCombine(1)}},
	{name: "combined", opts: []Option{WithCombine(5)}, batched: true},
}

// flushAllEvery is the scenario of a Redis that forgets every lock every d.
func flushAllEvery(d time.Duration) scenario {
	return scenario{
		name: fmt.Sprintf("FLUSHALL every %v", d),
		fault: func(ctx context.Context, s *sale) {
			c := quickClient(s.t, s.srv.Addr())
			for ctx.Err() == nil {
				c.FlushAll(ctx)
				time.Sleep(d)
			}
		},
	}
}

// lockKeysDeleted is the scenario of the row's lock key deleted every
// millisecond, under its holders.
func lockKeysDeleted() scenario {
	return scenario{
		name: "lock keys deleted continuously",
		fault: func(ctx context.Context, s *sale) {
			c := quickClient(s.t, s.srv.Addr())
			key := s.dao.lock.key(s.id)
			for ctx.Err() == nil {
				c.Del(ctx, key)
				time.Sleep(time.Millisecond)
			}
		},
		after: func(t *testing.T, s *sale) {
			if got := s.m.snapshot(); got["release_expired"]+got["release_not_owner"] == 0 {
				t.Errorf("no release found its lock gone: the fault did not bite (metrics %v)", got)
			}
		},
	}
}

// redisRestarted is the scenario of Redis stopped once the sale is under
// way and started again, empty.
func redisRestarted() scenario {
	return scenario{
		name: "Redis restarted mid-run",
		pace: 3 * time.Millisecond,
		fault: func(ctx context.Context, s *sale) {
			if !waitFor(ctx, func() bool { return s.succeeded.Load() >= 20 }) {
				return
			}
			s.srv.Stop()
			// Let a few attempts run against the dead server, then hold
			// new ones until it failed some and comes back empty.
			down := s.attempts.Load()
			waitFor(ctx, func() bool { return s.attempts.Load() >= down+10 })
			s.paused.Store(true)
			waitFor(ctx, func() bool { return s.m.snapshot()["acquire_error"] > 0 })
			s.srv.Start()
			s.paused.Store(false)
		},
		after: func(t *testing.T, s *sale) {
			if got := s.m.snapshot(); got["acquire_error"] == 0 {
				t.Errorf("no lock acquisition failed: the restart was not mid-run (metrics %v)", got)
			}
		},
	}
}

// sentinelClient returns a UniversalClient that follows the master of a
// fresh Sentinel set, giving up fast while the master is down.
func sentinelClient(t *testing.T, s *sale) redis.UniversalClient {
	set := dbtest.Sentinel(t)
	s.sentinel = set
	c := redis.NewUniversalClient(&redis.UniversalOptions{
		Addrs:       set.SentinelAddrs(),
		MasterName:  set.MasterName(),
		DialTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
		MaxRetries: 1, PoolSize: 64,
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// sentinelFailover kills the master once the sale is under way, lets
// attempts run while the set has no master, then holds them until the
// replica is promoted.
func sentinelFailover(ctx context.Context, s *sale) {
	set := s.sentinel
	if !waitFor(ctx, func() bool { return s.succeeded.Load() >= 20 }) {
		return
	}
	set.Master().Kill()
	down := s.attempts.Load()
	waitFor(ctx, func() bool { return s.attempts.Load() >= down+10 })
	s.paused.Store(true)
	defer s.paused.Store(false)
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	addr, err := set.WaitFailover(wctx)
	if err != nil {
		s.t.Errorf("failover: %v", err)
		return
	}
	if addr != set.Replica().Addr() {
		s.t.Errorf("new master %s, want the replica %s", addr, set.Replica().Addr())
	}
	if s.succeeded.Load() >= stock {
		s.t.Errorf("sold out before the failover completed: not mid-run")
	}
}

// TestNaiveReadModifyWriteOversells runs the same sale with the write most
// code does under a Redis lock: read the stock, check it, write the
// computed value. When the lock expires under a slow holder, two holders
// read the same stock and both sell: more than 100 units go. This is the
// harness failing a broken deduction; the generated one passes the same
// scenario in TestSoldExactlyOnce.
func TestNaiveReadModifyWriteOversells(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	sc := scenario{
		name: "naive read-modify-write, lock expiring under the work",
		opts: []Option{WithLockTTL(15 * time.Millisecond)},
		prepare: func(s *sale) {
			s.dao.lock.noWatchdog = true
			s.dao.beforeWrite = everyNth(1, 30*time.Millisecond)
		},
	}
	s := runSale(t, sc, naiveDeduct)
	left, _ := row(t, s.db, s.id)
	if s.succeeded.Load() <= stock {
		t.Errorf("naive read-modify-write sold %d of %d units (row left at %d): want an oversell, or the harness cannot catch one",
			s.succeeded.Load(), stock, left)
	}
}

// The naive statements: a plain read, and an absolute write of the value
// computed from it, without a version or an amount condition. (It bumps the
// version only so that the row always changes and RowsAffected is 1.)
const (
	naiveRead = "SELECT inventory FROM t_inventory WHERE id = ?"
	// guard:ignore GQ003 the naive write is the point: the test proves it oversells
	naiveWrite = "UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ?"
)

// naiveDeduct is the read-modify-write under the DAO's Redis lock, each
// call with a locker of its own, as if each buyer were a process of its own:
// within one process the line of the locker keeps holders apart even after
// their Redis lock expired, and the harness must see the Redis lock alone.
func naiveDeduct(s *sale) func(ctx context.Context, id, n int64) error {
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
		var have int64
		if err := s.db.QueryRowContext(ctx, naiveRead, id).Scan(&have); err != nil {
			return err
		}
		if have < n {
			return ErrInsufficient
		}
		s.dao.beforeWrite(ctx)
		res, err := s.db.ExecContext(ctx, naiveWrite, have-n, id)
		if err != nil {
			return err
		}
		if affected, err := res.RowsAffected(); err != nil || affected != 1 {
			return fmt.Errorf("naive write changed %d rows: %v", affected, err)
		}
		return nil
	}
}
