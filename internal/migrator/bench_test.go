package migrator

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// benchRows is the size of the benchmark table.
const benchRows = 1_000_000

// fillTable creates t_bench with benchRows rows, doubling it with
// INSERT … SELECT (20 statements instead of a million).
func fillTable(b *testing.B, db *dbtest.DB) {
	b.Helper()
	db.Exec(b,
		`CREATE TABLE t_bench (
		  id  BIGINT      NOT NULL PRIMARY KEY,
		  sku VARCHAR(32) NOT NULL,
		  qty INT         NOT NULL
		) ENGINE=InnoDB`,
		`INSERT INTO t_bench VALUES (1, 'sku-1', 1)`)
	for n := 1; n < benchRows; n *= 2 {
		db.Exec(b, fmt.Sprintf(`INSERT INTO t_bench SELECT id + %d, CONCAT('sku-', id + %d), (id + %d) %% 100 FROM t_bench`, n, n, n))
	}
	db.Exec(b, fmt.Sprintf("DELETE FROM t_bench WHERE id > %d", benchRows), "ANALYZE TABLE t_bench")
}

// BenchmarkPreflightCheck times preflight of ADD CHECK (qty >= 0) on a
// 1,000,000-row table next to SELECT COUNT(*) of the same table, in the same
// iterations; ratio is preflight/count (target ≤ 1.5). The preflight of an
// ADD UNIQUE on the table's VARCHAR column is reported alongside.
func BenchmarkPreflightCheck(b *testing.B) {
	db := dbtest.MySQL(b)
	fillTable(b, db)
	ctx := context.Background()
	m := open(b, db, writeDir(b, map[string]string{"000001_x.up.sql": "SELECT 1"}), Options{})
	stmts, errs := parseScript(sqlparse.NewParser(), "check.up.sql",
		"ALTER TABLE t_bench ADD CONSTRAINT chk_t_bench_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY;")
	unique, errs2 := parseScript(sqlparse.NewParser(), "unique.up.sql",
		"ALTER TABLE t_bench ADD UNIQUE INDEX uk_t_bench_sku (sku), ALGORITHM=INPLACE, LOCK=NONE;")
	if len(errs)+len(errs2) > 0 {
		b.Fatal(errs, errs2)
	}
	live, _, err := schema.FromInformationSchema(ctx, m.db, db.Name)
	if err != nil {
		b.Fatal(err)
	}
	// Warm up: the first scans after the fill share the server with the
	// purge of the deleted rows.
	for range 2 {
		if _, err := m.db.ExecContext(ctx, "DO (SELECT COUNT(*) FROM t_bench)"); err != nil {
			b.Fatal(err)
		}
		if _, err := Preflight(ctx, m.db, db.Name, live, stmts); err != nil {
			b.Fatal(err)
		}
	}
	var count, preflight, uniq time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		var n int64
		if err := m.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM t_bench").Scan(&n); err != nil || n != benchRows {
			b.Fatalf("count = %d, %v", n, err)
		}
		count += time.Since(start)
		start = time.Now()
		probes, err := Preflight(ctx, m.db, db.Name, live, stmts)
		if err != nil || len(probes) != 1 || probes[0].Status != StatusOK {
			b.Fatalf("preflight: %+v, %v", probes, err)
		}
		preflight += time.Since(start)
		start = time.Now()
		if probes, err := Preflight(ctx, m.db, db.Name, live, unique); err != nil || probes[0].Status != StatusOK {
			b.Fatalf("preflight: %+v, %v", probes, err)
		}
		uniq += time.Since(start)
	}
	b.ReportMetric(float64(count.Milliseconds())/float64(b.N), "count-ms/op")
	b.ReportMetric(float64(preflight.Milliseconds())/float64(b.N), "preflight-ms/op")
	b.ReportMetric(float64(preflight)/float64(count), "ratio")
	// For reference: the preflight of ADD UNIQUE (sku) on the same table.
	b.ReportMetric(float64(uniq.Milliseconds())/float64(b.N), "unique-preflight-ms/op")
}

// writer runs single-row UPDATEs in a loop and records their latencies.
type writer struct {
	mu   sync.Mutex
	lats []time.Duration
	n    atomic.Int64
}

// window returns the longest and the 99th percentile latency of the
// updates recorded since the last call.
func (w *writer) window() (maxLat, p99 time.Duration, n int) {
	w.mu.Lock()
	lats := w.lats
	w.lats = nil
	w.mu.Unlock()
	if len(lats) == 0 {
		return 0, 0, 0
	}
	sort.Slice(lats, func(i, j int) bool { return lats[i] < lats[j] })
	return lats[len(lats)-1], lats[len(lats)*99/100], len(lats)
}

// BenchmarkWriteStall measures the longest stall a concurrent writer sees
// while guard migrate up adds the version column (ALGORITHM=INSTANT), the
// UNIQUE index (INPLACE, LOCK=NONE) and the CHECK (COPY) to a
// 1,000,000-row table, each in its own file and run.
func BenchmarkWriteStall(b *testing.B) {
	db := dbtest.MySQL(b)
	fillTable(b, db)
	steps := []struct {
		name, up, down string
	}{
		{"instant-version", "ALTER TABLE t_bench ADD COLUMN version BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT;",
			"ALTER TABLE t_bench DROP COLUMN version;"},
		{"inplace-unique", "ALTER TABLE t_bench ADD UNIQUE INDEX uk_t_bench_sku (sku), ALGORITHM=INPLACE, LOCK=NONE;",
			"ALTER TABLE t_bench DROP INDEX uk_t_bench_sku;"},
		{"copy-check", "ALTER TABLE t_bench ADD CONSTRAINT chk_t_bench_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY;",
			"ALTER TABLE t_bench DROP CONSTRAINT chk_t_bench_qty_nonneg;"},
	}
	files := map[string]string{}
	for i, s := range steps {
		files[fmt.Sprintf("%06d_%s.up.sql", i+1, s.name)] = s.up
		files[fmt.Sprintf("%06d_%s.down.sql", i+1, s.name)] = s.down
	}
	m := open(b, db, writeDir(b, files), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	w := &writer{}
	var done sync.WaitGroup
	done.Add(1)
	go func() {
		defer done.Done()
		for ctx.Err() == nil {
			id := rand.IntN(benchRows) + 1
			start := time.Now()
			if _, err := db.SQL.ExecContext(ctx, "UPDATE t_bench SET qty = qty + 1 WHERE id = ?", id); err != nil {
				if ctx.Err() == nil {
					b.Error(err)
				}
				return
			}
			w.mu.Lock()
			w.lats = append(w.lats, time.Since(start))
			w.mu.Unlock()
		}
	}()

	maxStall := make([]time.Duration, len(steps))
	ddl := make([]time.Duration, len(steps))
	pre := make([]time.Duration, len(steps))
	b.ResetTimer()
	for range b.N {
		time.Sleep(200 * time.Millisecond)
		baseMax, baseP99, _ := w.window()
		b.Logf("baseline: max %s, p99 %s", baseMax, baseP99)
		for i, s := range steps {
			start := time.Now()
			res, err := m.Goto(ctx, uint(i+1))
			if err != nil {
				b.Fatalf("%s: %v", s.name, err)
			}
			ddl[i] += time.Since(start)
			var checked time.Duration
			for _, p := range res.Preflight {
				checked += p.Elapsed
			}
			pre[i] += checked
			mx, p99, n := w.window()
			maxStall[i] = max(maxStall[i], mx)
			b.Logf("%s: migrate %s (preflight %s), writer max %s, p99 %s over %d updates", s.name,
				time.Since(start).Round(time.Millisecond), checked.Round(time.Millisecond), mx, p99, n)
		}
		b.StopTimer()
		if _, err := m.Down(ctx, len(steps)); err != nil {
			b.Fatal(err)
		}
		w.window()
		b.StartTimer()
	}
	cancel()
	done.Wait()
	for i, s := range steps {
		b.ReportMetric(float64(maxStall[i].Microseconds())/1000, s.name+"-max-stall-ms")
		b.ReportMetric(float64(ddl[i].Milliseconds())/float64(b.N), s.name+"-migrate-ms")
		b.ReportMetric(float64(pre[i].Milliseconds())/float64(b.N), s.name+"-preflight-ms")
	}
}
