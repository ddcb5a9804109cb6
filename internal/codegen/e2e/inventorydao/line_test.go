package inventorydao

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
)

// setCalls returns how many SET commands (SET NX included) the server ran.
func setCalls(t *testing.T, rdb *redis.Client) int {
	t.Helper()
	info, err := rdb.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "cmdstat_set:calls="); ok {
			n, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
			return n
		}
	}
	return 0
}

// TestLineWaitsWithoutRedis: while a goroutine holds a key, the others of
// the same process wait in line without asking Redis, in order, and each
// takes the lock as soon as the one before releases it.
func TestLineWaitsWithoutRedis(t *testing.T) {
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	l := newTestLocker(rdb, 10*time.Second, 5*time.Second, m)
	key := l.key(11)
	first := mustAcquire(t, l, key)

	const waiters = 5
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range waiters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := mustAcquire(t, l, key)
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			h.release()
		}()
		time.Sleep(20 * time.Millisecond) // join the line in the order of i
	}
	before := setCalls(t, rdb)
	time.Sleep(150 * time.Millisecond)
	if got := setCalls(t, rdb) - before; got != 0 {
		t.Errorf("%d SET NX while the key was held in this process: the waiters polled Redis", got)
	}
	released := time.Now()
	first.release()
	wg.Wait()
	// Five hand-overs, each a SET NX and a release: far below one poll
	// interval each.
	if took := time.Since(released); took > time.Duration(waiters)*lockPollMax {
		t.Errorf("the line drained in %v after the release, want well under %v", took, time.Duration(waiters)*lockPollMax)
	}
	for i, w := range order {
		if w != i {
			t.Errorf("waiters took the lock in the order %v, want the order they came in", order)
			break
		}
	}
	if got := m.snapshot(); got["acquire_ok"] != waiters+1 || got["release_ok"] != waiters+1 {
		t.Errorf("metrics = %v, want %d acquisitions and releases", got, waiters+1)
	}
	if n := len(l.lines); n != 0 {
		t.Errorf("%d lines left once every holder released: they must go", n)
	}
}

// TestLineWaitIsBounded: a waiter in line gives up at the lock wait with
// ErrLockNotAcquired, or at once when its context ends, and leaves the line.
func TestLineWaitIsBounded(t *testing.T) {
	rdb := dbtest.Redis(t).Client()
	m := newRecorder()
	l := newTestLocker(rdb, 10*time.Second, 100*time.Millisecond, m)
	key := l.key(12)
	holder := mustAcquire(t, l, key)

	start := time.Now()
	if _, err := l.acquire(context.Background(), key); !errors.Is(err, ErrLockNotAcquired) {
		t.Errorf("acquire behind a holder of this process: %v, want ErrLockNotAcquired", err)
	}
	if took := time.Since(start); took < 100*time.Millisecond || took > time.Second {
		t.Errorf("gave up after %v, want about the 100ms wait", took)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	long := newTestLocker(rdb, 10*time.Second, 10*time.Second, m)
	longHolder := mustAcquire(t, long, key+"-long")
	if _, err := long.acquire(ctx, key+"-long"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("acquire with an ending context: %v, want the context's error", err)
	}
	longHolder.release()
	holder.release()
	if got := m.snapshot(); got["acquire_taken"] != 1 {
		t.Errorf("metrics = %v, want one acquire taken", got)
	}
	if n := len(l.lines) + len(long.lines); n != 0 {
		t.Errorf("%d lines left after the waiters gave up", n)
	}
}

// TestLineMovesWhenRedisFails: with Redis down each goroutine in line gets
// its error at once and passes its turn on: all of them go on unlocked.
func TestLineMovesWhenRedisFails(t *testing.T) {
	srv := dbtest.Redis(t)
	rdb := quickClient(t, srv.Addr())
	srv.Stop()
	m := newRecorder()
	l := newTestLocker(rdb, time.Second, 5*time.Second, m)
	const goroutines = 20
	var wg sync.WaitGroup
	start := time.Now()
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if h, err := l.acquire(context.Background(), l.key(13)); h != nil || err != nil {
				t.Errorf("acquire with Redis down = %v, %v; want no lock and no error", h, err)
			}
		}()
	}
	wg.Wait()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("%d acquisitions with Redis down took %v", goroutines, took)
	}
	if got := m.snapshot(); got["acquire_error"] != goroutines {
		t.Errorf("metrics = %v, want %d acquire errors", got, goroutines)
	}
}
