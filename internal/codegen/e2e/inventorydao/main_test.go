package inventorydao

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
)

func TestMain(m *testing.M) {
	// go-redis logs every failed dial; the fault tests cause thousands.
	redis.SetLogger(quietLogger{})
	dbtest.Main(m)
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// migration is the table the package was generated from.
const migration = "../../testdata/inventory/migrations/000001_create_inventory.up.sql"

// poolSize bounds the connections of one test's pool: 300 goroutines must
// not exhaust the server's max_connections.
const poolSize = 24

var skuSeq atomic.Int64

// newDB returns a fresh database holding the table.
func newDB(t *testing.T) *sqlx.DB {
	t.Helper()
	db := dbtest.MySQL(t)
	up, err := os.ReadFile(migration)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(t, string(up))
	x := sqlx.NewDb(db.SQL, "mysql")
	x.SetMaxOpenConns(poolSize)
	return x
}

// insertRow adds a row holding stock and returns its id.
func insertRow(t *testing.T, db *sqlx.DB, stock int64) int64 {
	t.Helper()
	m := &Inventory{SKU: fmt.Sprintf("sku-%d", skuSeq.Add(1)), Inventory: stock, Status: "active", Price: "9.99"}
	if err := NewInventoryDAO(db, nil).Insert(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// quickClient is a client of one Redis server that gives up fast when the
// server is down, as fault tests need.
func quickClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{
		Addr: addr, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
		MaxRetries: 1, PoolSize: 64,
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// recorder is a Metrics that counts every event.
type recorder struct {
	mu          sync.Mutex
	acquire     map[LockAcquireResult]int
	release     map[LockReleaseResult]int
	cas         map[CASResult]int
	renewFailed int
}

func newRecorder() *recorder {
	return &recorder{acquire: map[LockAcquireResult]int{}, release: map[LockReleaseResult]int{}, cas: map[CASResult]int{}}
}

func (r *recorder) LockAcquire(_ string, res LockAcquireResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acquire[res]++
}

func (r *recorder) LockRelease(_ string, res LockReleaseResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.release[res]++
}

func (r *recorder) LockRenewFailed(string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.renewFailed++
}

// LockHeld ignores the hold times: prometheus_test.go checks them through
// the histogram of NewPrometheusMetrics.
func (r *recorder) LockHeld(string, time.Duration) {}

func (r *recorder) CAS(_ string, res CASResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cas[res]++
}

// snapshot returns the counts as one map, for assertions and logs.
func (r *recorder) snapshot() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{"renew_failed": r.renewFailed}
	for k, v := range r.acquire {
		out["acquire_"+string(k)] = v
	}
	for k, v := range r.release {
		out["release_"+string(k)] = v
	}
	for k, v := range r.cas {
		out["cas_"+string(k)] = v
	}
	return out
}

// row reads the counter and the version of row id.
func row(t *testing.T, db *sqlx.DB, id int64) (inventory, version int64) {
	t.Helper()
	if err := db.QueryRow("SELECT inventory, version FROM t_inventory WHERE id = ?", id).Scan(&inventory, &version); err != nil {
		t.Fatal(err)
	}
	return inventory, version
}
