package migrator

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/dbtest"
)

// BenchmarkOSCWriteStall measures, on a 1,000,000-row table, the longest
// stall of a concurrent single-row writer and the whole step's time while
// guard migrate adds CHECK (qty >= 0): the ALTER run as written
// (ALGORITHM=COPY) against the same file handed to pt-online-schema-change
// (-- guard:osc pt-osc). Each is undone before the other runs. A write of
// the prepared-statement writer that fails at the tool's swap of the
// tables (1146 on its _new table) is counted, not fatal.
//
//	go test ./internal/migrator -run '^$' -bench BenchmarkOSCWriteStall -benchtime 1x -v
func BenchmarkOSCWriteStall(b *testing.B) {
	if _, err := lookPath(PTOSCBinary); err != nil {
		b.Fatalf("%v: make deps installs it", ErrNoOSCTool)
	}
	db := dbtest.MySQL(b)
	fillTable(b, db)
	const check = "ALTER TABLE t_bench ADD CONSTRAINT chk_t_bench_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED;"
	const down = "ALTER TABLE t_bench DROP CONSTRAINT chk_t_bench_qty_nonneg;"
	ways := []struct {
		name string
		up   string
	}{
		{"copy", check},
		{"pt-osc", "-- " + OSCDirective + " " + OSCPTOnlineSchemaChange + "\n" + check},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &writer{}
	var swapErrors int64
	var mu sync.Mutex
	var done sync.WaitGroup
	done.Add(1)
	go func() {
		defer done.Done()
		for ctx.Err() == nil {
			start := time.Now()
			_, err := db.SQL.ExecContext(ctx, "UPDATE t_bench SET qty = qty + 1 WHERE id = ?", rand.IntN(benchRows)+1)
			var me *mysql.MySQLError
			switch {
			case err == nil:
			case errors.As(err, &me) && me.Number == errNoSuchTable && strings.Contains(me.Message, "_t_bench_new"):
				mu.Lock()
				swapErrors++
				mu.Unlock()
			default:
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

	stall := make([]time.Duration, len(ways))
	took := make([]time.Duration, len(ways))
	b.ResetTimer()
	for range b.N {
		for i, way := range ways {
			m := open(b, db, writeDir(b, map[string]string{"000001_check.up.sql": way.up, "000001_check.down.sql": down}), Options{})
			time.Sleep(500 * time.Millisecond)
			baseMax, baseP99, _ := w.window()
			start := time.Now()
			if _, err := m.Up(ctx); err != nil {
				b.Fatalf("%s: %v", way.name, err)
			}
			d := time.Since(start)
			mx, p99, n := w.window()
			stall[i], took[i] = max(stall[i], mx), took[i]+d
			b.Logf("%s: step %s; writer longest stall %s, p99 %s over %d updates (before: longest %s, p99 %s)",
				way.name, d.Round(time.Millisecond), mx.Round(time.Millisecond), p99.Round(10*time.Microsecond), n,
				baseMax.Round(time.Millisecond), baseP99.Round(10*time.Microsecond))
			b.StopTimer()
			if _, err := m.Down(ctx, 1); err != nil {
				b.Fatal(err)
			}
			w.window()
			b.StartTimer()
		}
	}
	cancel()
	done.Wait()
	for i, way := range ways {
		b.ReportMetric(float64(stall[i].Microseconds())/1000, way.name+"-max-stall-ms")
		b.ReportMetric(float64(took[i].Milliseconds())/float64(b.N), way.name+"-step-ms")
	}
	b.ReportMetric(float64(swapErrors), "swap-errors")
}
