package inventorydao

import (
	"context"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
)

// newTestLocker returns a locker of t_inventory on rdb.
func newTestLocker(rdb redis.UniversalClient, ttl, wait time.Duration, m Metrics) *locker {
	return newLocker(rdb, tableInventory, newOptions([]Option{WithLockTTL(ttl), WithLockWait(wait), WithMetrics(m)}))
}

func mustAcquire(t *testing.T, l *locker, key string) *heldLock {
	t.Helper()
	h, err := l.acquire(context.Background(), key)
	if err != nil || h == nil {
		t.Fatalf("acquire %s: %v (lock %v)", key, err, h)
	}
	return h
}

// waitGone polls until key no longer exists.
func waitGone(t *testing.T, rdb redis.UniversalClient, key string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if n, err := rdb.Exists(context.Background(), key).Result(); err == nil && n == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s still exists", key)
}

func TestLockKeyAndToken(t *testing.T) {
	rdb := dbtest.Redis(t).Client()
	l := newTestLocker(rdb, time.Second, 0, nil)
	if got := l.key(42); got != "lock:t_inventory:42" {
		t.Errorf("key = %q, want lock:t_inventory:42", got)
	}
	a := mustAcquire(t, l, l.key(1))
	b := mustAcquire(t, l, l.key(2))
	defer a.release()
	defer b.release()
	for _, h := range []*heldLock{a, b} {
		raw, err := hex.DecodeString(h.token)
		if err != nil || len(raw) < 16 {
			t.Errorf("token %q: want at least 16 random bytes in hex (%v)", h.token, err)
		}
		if got, _ := rdb.Get(context.Background(), h.key).Result(); got != h.token {
			t.Errorf("%s holds %q, want the token %q", h.key, got, h.token)
		}
		if pttl, _ := rdb.PTTL(context.Background(), h.key).Result(); pttl <= 0 || pttl > time.Second {
			t.Errorf("%s PTTL = %v, want in (0, 1s]", h.key, pttl)
		}
	}
	if a.token == b.token {
		t.Errorf("two locks got the same token %q", a.token)
	}
}

// TestReleaseNeverDeletesAnotherHoldersLock: a holder whose lock expired
// and was taken by another, or overwritten, must leave the key alone.
func TestReleaseNeverDeletesAnotherHoldersLock(t *testing.T) {
	ctx := context.Background()
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	// Without a watchdog, so that a lock expires under its holder.
	short := newTestLocker(rdb, 60*time.Millisecond, 0, m)
	short.noWatchdog = true
	long := newTestLocker(rdb, time.Minute, 0, m)
	long.noWatchdog = true

	tests := []struct {
		name  string
		l     *locker
		after func(t *testing.T, key string) (owner string)
		want  LockReleaseResult
	}{
		{"still ours", long, func(*testing.T, string) string { return "" }, LockReleaseOK},
		{"expired", short, func(t *testing.T, key string) string { waitGone(t, rdb, key); return "" }, LockReleaseExpired},
		{"expired and taken by another holder", short, func(t *testing.T, key string) string {
			waitGone(t, rdb, key)
			other := mustAcquire(t, newTestLocker(rdb, 10*time.Second, 0, NopMetrics{}), key)
			t.Cleanup(func() { other.stopWatch(); <-other.done })
			return other.token
		}, LockReleaseNotOwner},
		{"overwritten", long, func(t *testing.T, key string) string {
			if err := rdb.Set(ctx, key, "intruder", 10*time.Second).Err(); err != nil {
				t.Fatal(err)
			}
			return "intruder"
		}, LockReleaseNotOwner},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := tt.l.key(int64(100 + i))
			h := mustAcquire(t, tt.l, key)
			owner := tt.after(t, key)
			if got := h.release(); got != tt.want {
				t.Errorf("release = %q, want %q", got, tt.want)
			}
			got, err := rdb.Get(ctx, key).Result()
			switch {
			case owner == "" && !errors.Is(err, redis.Nil):
				t.Errorf("after release %s = %q (%v), want no key", key, got, err)
			case owner != "" && got != owner:
				t.Errorf("after release %s = %q (%v), want the other holder's %q kept", key, got, err, owner)
			}
		})
	}
	if got := m.snapshot(); got["release_ok"] != 1 || got["release_expired"] != 1 || got["release_not_owner"] != 2 {
		t.Errorf("metrics = %v, want release ok 1, expired 1, not_owner 2", got)
	}
}

// TestWatchdogKeepsSlowHolder: a holder working for many TTLs keeps its
// lock, its work context stays live, and the watchdog is gone once the lock
// is released (it would report a failed renewal if it renewed after the
// delete).
func TestWatchdogKeepsSlowHolder(t *testing.T) {
	ctx := context.Background()
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	// A TTL long enough that a renewal delayed by a loaded machine still
	// lands before expiry; the work outlasts it four times over.
	const ttl = 600 * time.Millisecond
	l := newTestLocker(rdb, ttl, 0, m)
	h := mustAcquire(t, l, l.key(7))

	time.Sleep(4 * ttl) // the slow work
	if got, err := rdb.Get(ctx, h.key).Result(); got != h.token {
		t.Fatalf("after 4 TTLs the key holds %q (%v), want our token", got, err)
	}
	if pttl, _ := rdb.PTTL(ctx, h.key).Result(); pttl <= 0 {
		t.Errorf("PTTL = %v, want the renewed TTL", pttl)
	}
	if err := h.ctx.Err(); err != nil {
		t.Errorf("work context ended while the lock was renewed: %v", err)
	}
	if got := h.release(); got != LockReleaseOK {
		t.Errorf("release = %q, want ok", got)
	}
	select {
	case <-h.done:
	default:
		t.Fatal("release returned before the watchdog stopped")
	}
	time.Sleep(2 * ttl)
	if got := m.snapshot(); got["renew_failed"] != 0 {
		t.Errorf("renewals failed %d times: the watchdog ran on after release", got["renew_failed"])
	}
	if n, _ := rdb.Exists(ctx, h.key).Result(); n != 0 {
		t.Errorf("key still exists after release")
	}
}

// TestLostLockCancelsWork: when the key disappears (expiry, FLUSHALL,
// failover) the next renewal fails and cancels the work context with cause
// ErrLockLost; a stopped Redis does the same.
func TestLostLockCancelsWork(t *testing.T) {
	ctx := context.Background()
	srv := dbtest.Redis(t)
	rdb := quickClient(t, srv.Addr())
	const ttl = 90 * time.Millisecond

	for _, tt := range []struct {
		name string
		lose func(t *testing.T, key string)
	}{
		{"key deleted", func(t *testing.T, key string) { rdb.Del(ctx, key) }},
		{"redis stopped", func(*testing.T, string) { srv.Stop() }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newRecorder()
			l := newTestLocker(rdb, ttl, 0, m)
			h := mustAcquire(t, l, l.key(9))
			tt.lose(t, h.key)
			select {
			case <-h.ctx.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("work context still live 5s after the lock was lost")
			}
			if cause := context.Cause(h.ctx); cause != ErrLockLost {
				t.Errorf("cause = %v, want ErrLockLost", cause)
			}
			if err := workError(ctx, h); err != ErrLockLost {
				t.Errorf("workError = %v, want ErrLockLost", err)
			}
			h.release()
			if got := m.snapshot(); got["renew_failed"] != 1 {
				t.Errorf("metrics = %v, want one renew failure", got)
			}
		})
	}
}

func TestAcquireWaitsBoundedAndRespectsContext(t *testing.T) {
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	l := newTestLocker(rdb, 10*time.Second, 150*time.Millisecond, m)
	holder := mustAcquire(t, l, l.key(5))
	defer holder.release()

	start := time.Now()
	_, err := l.acquire(context.Background(), l.key(5))
	if !errors.Is(err, ErrLockNotAcquired) {
		t.Fatalf("acquire of a held lock: %v, want ErrLockNotAcquired", err)
	}
	if took := time.Since(start); took < 150*time.Millisecond || took > 2*time.Second {
		t.Errorf("gave up after %v, want about the 150ms wait", took)
	}

	long := newTestLocker(rdb, 10*time.Second, 10*time.Second, m)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = long.acquire(ctx, l.key(5))
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrLockNotAcquired) {
		t.Errorf("acquire with an ending context: %v, want the context's error, not a lock failure", err)
	}
	if got := m.snapshot(); got["acquire_taken"] != 1 || got["acquire_ok"] != 1 {
		t.Errorf("metrics = %v, want acquire ok 1, taken 1", got)
	}
}

// TestAcquireWithRedisDown: an unreachable Redis yields no lock and no
// error: the caller goes on unlocked.
func TestAcquireWithRedisDown(t *testing.T) {
	srv := dbtest.Redis(t)
	rdb := quickClient(t, srv.Addr())
	srv.Stop()
	m := newRecorder()
	l := newTestLocker(rdb, time.Second, time.Second, m)
	h, err := l.acquire(context.Background(), l.key(1))
	if h != nil || err != nil {
		t.Fatalf("acquire with Redis down = %v, %v; want no lock and no error", h, err)
	}
	if got := m.snapshot(); got["acquire_error"] != 1 {
		t.Errorf("metrics = %v, want one acquire error", got)
	}
	if h, err := newTestLocker(nil, time.Second, 0, m).acquire(context.Background(), "k"); h != nil || err != nil {
		t.Errorf("acquire without a client = %v, %v; want no lock and no error", h, err)
	}
}
