package drill

import (
	"bytes"
	"context"
	"flag"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// The measurement of the README: go test ./internal/drill -run TestMeasure
// -measure -v. It is not a test of behaviour and runs only when asked.
var (
	measure           = flag.Bool("measure", false, "run TestMeasure: hot row and spread, 300 workers, every strategy")
	measureStock      = flag.Int64("measure.stock", 5000, "units per row in the hot row mode")
	measureRows       = flag.Int("measure.rows", 10, "rows of the spread mode")
	measureStrategies = flag.String("measure.strategies", "all", "strategies to measure")
	measureConns      = flag.Int("measure.conns", 64, "database connections")
)

func TestMeasure(t *testing.T) {
	if !*measure {
		t.Skip("a measurement, not a test: run with -measure")
	}
	strategies, err := ParseStrategies(*measureStrategies)
	if err != nil {
		t.Fatal(err)
	}
	db, pool := newDB(t, stockTable)
	pool.SetMaxOpenConns(*measureConns)
	pool.SetMaxIdleConns(*measureConns)
	srv := dbtest.Redis(t)
	for _, mode := range []struct {
		rows  int
		stock int64
	}{{1, *measureStock}, {*measureRows, *measureStock / int64(*measureRows)}} {
		rep, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Redis: quickClient(t, srv.Addr()),
			Table: "t_stock", Rows: mode.rows, Stock: mode.stock, Workers: DefaultWorkers, Strategies: strategies})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		WriteText(&b, rep)
		t.Log("\n" + b.String())
	}
}
