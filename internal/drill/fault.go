package drill

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// flushEvery is the pause between two flushes of the lock keys.
const flushEvery = 2 * time.Millisecond

// flushBatch bounds the keys one flush deletes, so that a spread drill of
// many rows does not turn each flush into a long command.
const flushBatch = 1000

// restarts is how many times FaultRestart restarts Redis during a run: at a
// third and at two thirds of it.
const restarts = 2

// lockKey is the Redis key of the lock of row id that the generated DAO
// takes when it works on table (DESIGN §7: lock:<table>:<id>).
func lockKey(table string, id int64) string {
	return fmt.Sprintf("lock:%s:%d", table, id)
}

// dropLocks deletes every lock key lock-cas may have left on the scratch
// view, once its workers are done: a lock whose SET reached Redis after its
// caller gave up (a run cancelled mid-acquire) would otherwise outlive the
// drill until its TTL. The view's name is the drill's own, so no other
// program's key is touched.
func dropLocks(ctx context.Context, opts *Options, view string) error {
	if opts.Redis == nil || !slices.Contains(opts.Strategies, LockCAS) {
		return nil
	}
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	for first := int64(1); first <= int64(opts.Rows); first += flushBatch {
		keys := make([]string, 0, flushBatch)
		for id := first; id <= int64(opts.Rows) && len(keys) < flushBatch; id++ {
			keys = append(keys, lockKey(view, id))
		}
		if err := opts.Redis.Del(c, keys...).Err(); err != nil {
			return fmt.Errorf("delete the lock keys of %s: %w", view, err)
		}
	}
	return nil
}

// runFault injects opts.Fault until ctx ends. sold and units tell how far
// the run is.
func runFault(ctx context.Context, opts *Options, view string, sold *atomic.Int64, units int64) {
	switch opts.Fault {
	case FaultFlush:
		flushLocks(ctx, opts, view)
	case FaultRestart:
		restartRedis(ctx, opts, sold, units)
	}
}

// flushLocks deletes the drill's lock keys every few milliseconds, as a
// FLUSHALL would, leaving every other key of the server alone. Its errors
// are those of a Redis under fault: they are the point, not a failure.
func flushLocks(ctx context.Context, opts *Options, view string) {
	next := int64(1)
	for ctx.Err() == nil {
		keys := make([]string, 0, min(opts.Rows, flushBatch))
		for len(keys) < cap(keys) {
			keys = append(keys, lockKey(view, next))
			next = next%int64(opts.Rows) + 1
		}
		opts.Redis.Del(ctx, keys...)
		sleepContext(ctx, flushEvery)
	}
}

// restartRedis restarts the server when a third and when two thirds of the
// stock (or of the duration) are gone.
func restartRedis(ctx context.Context, opts *Options, sold *atomic.Int64, units int64) {
	began := time.Now()
	for k := int64(1); k <= restarts; k++ {
		for {
			if ctx.Err() != nil {
				return
			}
			due := sold.Load()*(restarts+1) >= k*units
			if opts.Duration > 0 {
				due = due || time.Since(began)*(restarts+1) >= time.Duration(k)*opts.Duration
			}
			if due {
				break
			}
			sleepContext(ctx, time.Millisecond)
		}
		// The hook's error is the fault's own business: the lock-cas
		// deductions meanwhile are what the drill measures.
		opts.RestartRedis()
	}
}
