package migrator

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// The measurement of the README: go test ./internal/migrator -run
// TestMeasureStallBehindTransaction -measure -v. It is not a test of
// behaviour and runs only when asked.
var (
	measure     = flag.Bool("measure", false, "run TestMeasureStallBehindTransaction: a writer's longest stall while a migration waits behind a transaction")
	measureHold = flag.Duration("measure.hold", 30*time.Second, "how long the transaction stays open")
)

// TestMeasureStallBehindTransaction measures the longest stall of a writer
// updating single rows of a table while guard migrate up adds a column to
// it (ALGORITHM=INSTANT, a moment's work once it has the metadata lock) and
// a transaction that read the table stays open for -measure.hold: under
// the server's own lock_wait_timeout (a day on MariaDB) and under the
// default --ddl-lock-timeout.
func TestMeasureStallBehindTransaction(t *testing.T) {
	if !*measure {
		t.Skip("a measurement, not a test: run with -measure")
	}
	for _, tc := range []struct {
		name    string
		timeout time.Duration
	}{{"server's lock_wait_timeout", -1}, {"--ddl-lock-timeout 5s", 0}} {
		db := dbtest.MySQL(t)
		db.Exec(t, "CREATE TABLE t_lock (id INT PRIMARY KEY, qty INT NOT NULL DEFAULT 0)",
			"INSERT INTO t_lock (id) SELECT seq FROM seq_1_to_1000")
		m := open(t, db, writeDir(t, map[string]string{
			"000001_col.up.sql": "ALTER TABLE t_lock ADD COLUMN version BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT;",
		}), Options{DDLLockTimeout: tc.timeout})

		ctx, cancel := context.WithCancel(context.Background())
		w := &writer{}
		var done sync.WaitGroup
		done.Add(1)
		go func() {
			defer done.Done()
			for ctx.Err() == nil {
				start := time.Now()
				if _, err := db.SQL.ExecContext(ctx, "UPDATE t_lock SET qty = qty + 1 WHERE id = ?", rand.IntN(1000)+1); err != nil {
					if ctx.Err() == nil {
						t.Error(err)
					}
					return
				}
				w.mu.Lock()
				w.lats = append(w.lats, time.Since(start))
				w.mu.Unlock()
			}
		}()
		time.Sleep(time.Second)
		baseMax, baseP99, _ := w.window()

		began := time.Now()
		holdTableFor(t, db, *measureHold)
		_, err := m.Up(ctx)
		ran := time.Since(began)
		var wait *LockWaitError
		outcome := "applied"
		if errors.As(err, &wait) {
			outcome = "gave up, version clean"
		} else if err != nil {
			t.Fatal(err)
		}
		// The rest of the transaction's life, after the migration.
		time.Sleep(time.Until(began.Add(*measureHold + time.Second)))
		mx, p99, n := w.window()
		cancel()
		done.Wait()
		t.Logf("%s: migration %s after %s; writer over the transaction's %s: longest stall %s, p99 %s, %d updates (before: longest %s, p99 %s)",
			tc.name, outcome, ran.Round(100*time.Millisecond), *measureHold, mx.Round(time.Millisecond), p99.Round(10*time.Microsecond), n,
			baseMax.Round(time.Millisecond), baseP99.Round(10*time.Microsecond))
	}
}
