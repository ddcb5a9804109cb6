package drill

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
)

// countingConnector counts the connections a pool opens.
type countingConnector struct {
	driver.Connector
	opened *atomic.Int64
}

func (c countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err == nil {
		c.opened.Add(1)
	}
	return conn, err
}

// countedPool opens a pool on dsn whose connections are counted in opened.
func countedPool(t *testing.T, dsn string, opened *atomic.Int64) *sql.DB {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn + "&interpolateParams=true")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pool := sql.OpenDB(countingConnector{Connector: conn, opened: opened})
	pool.SetMaxOpenConns(4)
	pool.SetMaxIdleConns(4)
	return pool
}

// TestDrillNodes splits 30 workers over 3 nodes: every node's own pool
// opens connections and makes deductions, the guarded strategies sell
// exactly the stock, the drill closes the pools and clients it was given,
// and lock-cas reports its hold times and the TTL advice.
func TestDrillNodes(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, seededStock...)
	addr := dbtest.Redis(t).Addr()
	var opened [3]atomic.Int64
	pool := countedPool(t, db.DSN, &opened[0])
	t.Cleanup(func() { pool.Close() })
	rdb := quickClient(t, addr)
	var nodePools []*sql.DB
	var nodeRedis []redis.UniversalClient
	newNode := func(_ context.Context, i int) (*sql.DB, redis.UniversalClient, error) {
		p := countedPool(t, db.DSN, &opened[i])
		c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 16})
		nodePools, nodeRedis = append(nodePools, p), append(nodeRedis, c)
		return p, c, nil
	}
	rep, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Redis: rdb, Table: "t_stock",
		Rows: 1, Stock: 40, Workers: 30, Nodes: 3, NewNode: newNode,
		Strategies: []Strategy{Conditional, LockCAS}})
	if err != nil {
		t.Fatal(err)
	}
	checkGuards(t, rep, true)
	if rep.Nodes != 3 || len(nodePools) != 2 || nodePools[0] == nodePools[1] {
		t.Fatalf("nodes %d, %d pools opened by NewNode: want 3 nodes, 2 distinct pools", rep.Nodes, len(nodePools))
	}
	for i := range opened {
		if opened[i].Load() == 0 {
			t.Errorf("node %d's pool opened no connection", i+1)
		}
	}
	for _, r := range rep.Results {
		if len(r.NodeOps) != 3 {
			t.Fatalf("%s: node ops %v, want 3 nodes", r.Strategy, r.NodeOps)
		}
		var sum int64
		for i, n := range r.NodeOps {
			if n == 0 {
				t.Errorf("%s: node %d made no deduction (%v)", r.Strategy, i+1, r.NodeOps)
			}
			sum += n
		}
		if sum != r.Ops {
			t.Errorf("%s: node ops %v add up to %d, want %d", r.Strategy, r.NodeOps, sum, r.Ops)
		}
	}
	for i := range nodePools {
		if err := nodePools[i].Ping(); err == nil {
			t.Errorf("node %d's pool is still open after the run", i+2)
		}
		if err := nodeRedis[i].Ping(context.Background()).Err(); err != redis.ErrClosed {
			t.Errorf("node %d's Redis client after the run: %v, want closed", i+2, err)
		}
	}
	if err := pool.Ping(); err != nil {
		t.Errorf("the caller's pool was closed: %v", err)
	}

	lc := rep.Result(LockCAS)
	if lc.LockHolds == 0 || lc.HeldP50 <= 0 || lc.HeldP99 < lc.HeldP50 || lc.HeldMax < lc.HeldP99 {
		t.Errorf("lock holds %d (sold %d), p50 %v, p99 %v, max %v", lc.LockHolds, lc.Successes, lc.HeldP50, lc.HeldP99, lc.HeldMax)
	}
	if lc.LockTTL != policy.Default().Lock.TTL.Duration {
		t.Errorf("lock TTL %v, want the policy's", lc.LockTTL)
	}
	if c := rep.Result(Conditional); c.LockHolds != 0 || c.TTLFit() != "" {
		t.Errorf("conditional reports lock holds: %d, %q", c.LockHolds, c.TTLFit())
	}
	var text, js bytes.Buffer
	if err := WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"30 workers on 3 nodes", "lock-cas held the lock p50 ", "the configured " + lc.LockTTL.String() + " is " + lc.TTLFit() + " it"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := WriteJSON(&js, rep, "test"); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Nodes      int `json:"nodes"`
		Strategies []struct {
			Strategy string  `json:"strategy"`
			NodeOps  []int64 `json:"node_ops"`
			LockHold *struct {
				Holds  int64   `json:"holds"`
				P99MS  float64 `json:"p99_ms"`
				MaxMS  float64 `json:"max_ms"`
				TTLMS  float64 `json:"ttl_ms"`
				MinMS  float64 `json:"advised_ttl_min_ms"`
				HighMS float64 `json:"advised_ttl_max_ms"`
				Fit    string  `json:"ttl_fit"`
			} `json:"lock_hold"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Nodes != 3 || len(out.Strategies) != 2 || out.Strategies[0].LockHold != nil || len(out.Strategies[0].NodeOps) != 3 {
		t.Fatalf("json: %s", js.String())
	}
	h := out.Strategies[1].LockHold
	if h == nil || h.Holds != lc.LockHolds || h.MaxMS <= 0 || math.Abs(h.MinMS-3*h.MaxMS) > 0.005 || math.Abs(h.HighMS-5*h.MaxMS) > 0.005 || h.TTLMS != 3000 || h.Fit != lc.TTLFit() {
		t.Errorf("json lock_hold: %+v", h)
	}
}

// TestTTLAdvice: the advised TTL is 3-5x the longest hold, and the
// configured one is below, inside or above it.
func TestTTLAdvice(t *testing.T) {
	for _, tt := range []struct {
		ttl  time.Duration
		want string
	}{{20 * time.Millisecond, "below"}, {30 * time.Millisecond, "inside"}, {50 * time.Millisecond, "inside"}, {51 * time.Millisecond, "above"}} {
		r := &Result{Strategy: LockCAS, LockHolds: 5, HeldP50: time.Millisecond, HeldP99: 8 * time.Millisecond, HeldMax: 10 * time.Millisecond, LockTTL: tt.ttl}
		if lo, hi, ok := r.AdvisedTTL(); !ok || lo != 30*time.Millisecond || hi != 50*time.Millisecond {
			t.Errorf("advised %v-%v (%v), want 30ms-50ms", lo, hi, ok)
		}
		if got := r.TTLFit(); got != tt.want {
			t.Errorf("TTL %v: %q, want %q", tt.ttl, got, tt.want)
		}
		if n := r.TTLNote(); !strings.Contains(n, "max 10.0ms") || !strings.Contains(n, "30.0ms-50.0ms") || !strings.Contains(n, " is "+tt.want+" it") {
			t.Errorf("note %q", n)
		}
	}
	if _, _, ok := (&Result{Strategy: LockCAS}).AdvisedTTL(); ok {
		t.Error("advice without a lock held")
	}
}

// TestCheckNodes: nodes below 0, above the workers, or more than one
// without NewNode are refused; 0 is one node.
func TestCheckNodes(t *testing.T) {
	base := func() Options {
		return Options{Table: "t", Rows: 1, Stock: 1, Workers: 4, Strategies: []Strategy{Conditional}}
	}
	newNode := func(context.Context, int) (*sql.DB, redis.UniversalClient, error) { return nil, nil, nil }
	for _, tt := range []struct {
		nodes int
		fn    func(context.Context, int) (*sql.DB, redis.UniversalClient, error)
		want  string
	}{{-1, newNode, "nodes -1"}, {5, newNode, "at most one per worker"}, {2, nil, "no way to open"}} {
		o := base()
		o.Nodes, o.NewNode = tt.nodes, tt.fn
		if err := o.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("nodes %d: %v, want %q", tt.nodes, err, tt.want)
		}
	}
	o := base()
	if err := o.Check(); err != nil || o.Nodes != 1 {
		t.Errorf("nodes 0: %v, nodes %d, want 1", err, o.Nodes)
	}
}
