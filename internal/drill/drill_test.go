package drill

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// scratchObjects lists the tables and views of the database whose name the
// drill gives its scratch copies.
func scratchObjects(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	rows, err := db.SQL.Query(`SELECT TABLE_NAME FROM information_schema.TABLES
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'guard\_drill\_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out = append(out, name)
	}
	return out
}

// checksum is CHECKSUM TABLE: it changes with any row of the table.
func checksum(t *testing.T, db *dbtest.DB, table string) int64 {
	t.Helper()
	var name string
	var sum int64
	if err := db.SQL.QueryRow("CHECKSUM TABLE "+quoteIdent(table)).Scan(&name, &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// seededStock is the table of most tests with two rows of its own, which the
// drill must leave alone.
var seededStock = []string{stockTable, `INSERT INTO t_stock (id, sku, stock, price, version) VALUES (1, 'a', 5, 1.00, 7), (2, 'b', 0, 2.00, 3)`}

// checkGuards asserts what a drill must show: naive oversells (when it
// ran), every other strategy sold exactly the stock it had and left each row
// at its stock minus its sales.
func checkGuards(t *testing.T, rep *Report, soldOut bool) {
	t.Helper()
	units := int64(rep.Rows) * rep.Stock
	for _, r := range rep.Results {
		t.Logf("%-11s sold %d oversold %d final %d consistent %v ops %d refused %d conflicts %d lock %d/%d/%d p99 %v",
			r.Strategy, r.Successes, r.Oversold, r.FinalStock, r.Consistent, r.Ops, r.Refused, r.CASConflicts,
			r.LockTaken, r.LockError, r.LockLost, r.P99)
		if !r.Guarded() {
			if r.Oversold == 0 {
				t.Errorf("naive oversold nothing (%d sold of %d): the drill cannot show what the guards prevent", r.Successes, units)
			}
			continue
		}
		if !r.Held() {
			t.Errorf("%s did not hold: %d sold, %d oversold, final %d, consistent %v", r.Strategy, r.Successes, r.Oversold, r.FinalStock, r.Consistent)
		}
		if soldOut && (r.Successes != units || r.FinalStock != 0) {
			t.Errorf("%s sold %d of %d and left %d: want sold out", r.Strategy, r.Successes, units, r.FinalStock)
		}
		if r.FinalStock != r.ExpectedStock {
			t.Errorf("%s: final %d, expected %d", r.Strategy, r.FinalStock, r.ExpectedStock)
		}
		if r.Ops < r.Successes || r.P50 <= 0 || r.P99 < r.P50 || r.Max < r.P99 || r.OpsPerSec <= 0 {
			t.Errorf("%s: implausible measures: ops %d, p50 %v, p99 %v, max %v, %f/s", r.Strategy, r.Ops, r.P50, r.P99, r.Max, r.OpsPerSec)
		}
	}
	if got := len(rep.Failed()); got != 0 {
		t.Errorf("failed strategies: %v", rep.Failed())
	}
}

// TestDrill runs every strategy with 300 workers on one hot row and on ten
// rows: naive oversells, the others hold; the table's own rows are
// untouched and the scratch copy is gone.
func TestDrill(t *testing.T) {
	if testing.Short() {
		t.Skip("300 workers on MariaDB and Redis: not in -short")
	}
	db, pool := newDB(t, seededStock...)
	before := checksum(t, db, "t_stock")
	rdb := quickClient(t, dbtest.Redis(t).Addr())
	for _, mode := range []struct {
		name  string
		rows  int
		stock int64
	}{{"hot row", 1, 100}, {"spread", 10, 20}} {
		t.Run(mode.name, func(t *testing.T) {
			rep, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Redis: rdb, Table: "t_stock",
				Rows: mode.rows, Stock: mode.stock, Workers: DefaultWorkers})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != len(Strategies()) {
				t.Fatalf("%d results, want one per strategy", len(rep.Results))
			}
			checkGuards(t, rep, true)
			if rep.PrimaryKey != "id" || rep.Counter != "stock" || rep.Version != "version" || rep.VersionAdded {
				t.Errorf("columns: %s, %s, %s (added %v)", rep.PrimaryKey, rep.Counter, rep.Version, rep.VersionAdded)
			}
			if !strings.HasPrefix(rep.Scratch, ScratchPrefix) || rep.View != rep.Scratch+"_v" {
				t.Errorf("scratch %q, view %q", rep.Scratch, rep.View)
			}
		})
	}
	if got := scratchObjects(t, db); len(got) != 0 {
		t.Errorf("scratch objects left behind: %v", got)
	}
	if after := checksum(t, db, "t_stock"); after != before {
		t.Errorf("t_stock changed: checksum %d, was %d", after, before)
	}
}

// TestLockCASUnderRedisFaults runs lock-cas while its lock keys are flushed
// every 2ms, and while Redis restarts: the lock is lost or unavailable, and
// the compare-and-set alone keeps the stock right.
func TestLockCASUnderRedisFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("300 workers on MariaDB and Redis: not in -short")
	}
	db, pool := newDB(t, seededStock...)
	for _, tt := range []struct {
		fault Fault
		bit   func(r *Result) bool
	}{
		{FaultFlush, func(r *Result) bool { return r.LockLost > 0 }},
		{FaultRestart, func(r *Result) bool { return r.LockError > 0 }},
	} {
		t.Run(string(tt.fault), func(t *testing.T) {
			srv := dbtest.Redis(t)
			rep, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Redis: quickClient(t, srv.Addr()),
				// Enough stock for many holds of the lock: combined, lock-cas
				// sells a few hundred units per hold, and a fault must meet
				// the acquisitions that come after it.
				Table: "t_stock", Rows: 1, Stock: 6000, Workers: DefaultWorkers,
				Strategies: []Strategy{Conditional, LockCAS}, Fault: tt.fault,
				RestartRedis: func() error {
					// Down long enough for lock requests to fail, not only
					// to be retried by the client.
					srv.Stop()
					time.Sleep(100 * time.Millisecond)
					srv.Start()
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			checkGuards(t, rep, true)
			if r := rep.Result(LockCAS); !tt.bit(r) {
				t.Errorf("the %s fault did not bite: lock taken/error/lost %d/%d/%d", tt.fault, r.LockTaken, r.LockError, r.LockLost)
			}
		})
	}
}

// TestCancelDropsScratch cancels a run mid-way, as Ctrl-C does: Run
// returns ErrInterrupted and the scratch table and view are gone.
func TestCancelDropsScratch(t *testing.T) {
	db, pool := newDB(t, seededStock...)
	before := checksum(t, db, "t_stock")
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() {
		// Cancel once the scratch table exists and the workers run.
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) && len(scratchObjects(t, db)) < 2 {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		close(started)
		cancel()
	}()
	rep, err := Run(ctx, Options{DB: pool, Database: db.Name, Table: "t_stock",
		Rows: 1, Stock: 1_000_000, Workers: 50, Strategies: []Strategy{ForUpdate, Conditional}})
	<-started
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run after cancel: %v, want ErrInterrupted", err)
	}
	if rep == nil || rep.Scratch == "" {
		t.Fatalf("no report of the interrupted run: %+v", rep)
	}
	if got := scratchObjects(t, db); len(got) != 0 {
		t.Errorf("scratch objects left after cancel: %v", got)
	}
	if after := checksum(t, db, "t_stock"); after != before {
		t.Errorf("t_stock changed: checksum %d, was %d", after, before)
	}
}

// TestDuration stops each strategy after the duration, with stock left:
// the accounts still add up.
func TestDuration(t *testing.T) {
	db, pool := newDB(t, seededStock...)
	start := time.Now()
	rep, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Table: "t_stock",
		Rows: 3, Stock: 1_000_000, Workers: 20, Duration: 300 * time.Millisecond, Strategies: []Strategy{Conditional, CAS}})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("two strategies of 300ms took %v", took)
	}
	checkGuards(t, rep, false)
	for _, r := range rep.Results {
		// The clock of Elapsed starts with the workers, a moment after Run was
		// called: a few milliseconds under the duration is the same run.
		if r.Successes == 0 || r.FinalStock <= 0 || r.Elapsed < 250*time.Millisecond || r.Elapsed > 5*time.Second {
			t.Errorf("%s: sold %d, final %d in %v: want some sold, stock left, about 300ms", r.Strategy, r.Successes, r.FinalStock, r.Elapsed)
		}
	}
}

// TestDropLocksOnCancel: after a cancelled run, the lock keys lock-cas may
// have left on the scratch view are deleted, every batch of them, and no
// other key is touched.
func TestDropLocksOnCancel(t *testing.T) {
	rdb := quickClient(t, dbtest.Redis(t).Addr())
	bg := context.Background()
	const view, rows = "guard_drill_0011223344556677_v", flushBatch + 2
	for _, id := range []int64{1, flushBatch, flushBatch + 1, rows} {
		if err := rdb.Set(bg, lockKey(view, id), "token", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	others := []string{lockKey("t_stock", 1), lockKey(view, rows+1)}
	for _, k := range others {
		if err := rdb.Set(bg, k, "token", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	opts := &Options{Redis: rdb, Rows: rows, Strategies: []Strategy{Conditional, LockCAS}}
	if err := dropLocks(ctx, opts, view); err != nil {
		t.Fatal(err)
	}
	keys, err := rdb.Keys(bg, "lock:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	slices.Sort(others)
	if !slices.Equal(keys, others) {
		t.Errorf("keys left %q, want only %q", keys, others)
	}
}
