package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

const drillTable = `CREATE TABLE t_stock (
	id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY,
	sku VARCHAR(32) NOT NULL UNIQUE,
	stock INT NOT NULL DEFAULT 0 CHECK (stock >= 0),
	version BIGINT UNSIGNED NOT NULL DEFAULT 0
) ENGINE=InnoDB`

// guardDrill runs guard drill and fails t if the password shows.
func guardDrill(t *testing.T, password string, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, code := guard(t, append([]string{"drill"}, args...)...)
	for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
		if strings.Contains(s, password) {
			t.Errorf("guard drill: the password appears in %s:\n%s", name, dbtest.Redact(s))
		}
	}
	return out, errOut, code
}

// TestDrillCommand runs the drill end to end in both formats: every guarded
// strategy holds, exit 0, and the scratch copy is gone.
func TestDrillCommand(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable, `INSERT INTO t_stock (sku, stock) VALUES ('a', 3)`)
	srv := dbtest.Redis(t)
	common := []string{"--dsn", db.DSN, "--redis", srv.Addr(), "--table", "t_stock", "--workers", "40", "--conns", "16", "--stock", "30"}

	out, errOut, code := guardDrill(t, db.Password, append(common, "--format", "json", "--rows", "2")...)
	if code != exitClean {
		t.Fatalf("exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	var rep struct {
		Tool       string `json:"tool"`
		Table      string `json:"table"`
		Mode       string `json:"mode"`
		Strategies []struct {
			Strategy   string `json:"strategy"`
			Successes  int64  `json:"successes"`
			Oversold   int64  `json:"oversold"`
			FinalStock int64  `json:"final_stock"`
			Consistent bool   `json:"consistent"`
		} `json:"strategies"`
		Failed []string `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Tool != "guard" || rep.Table != "t_stock" || rep.Mode != "spread" || len(rep.Strategies) != 5 || len(rep.Failed) != 0 {
		t.Errorf("report: %+v", rep)
	}
	for _, s := range rep.Strategies {
		if s.Strategy != "naive" && (s.Successes != 60 || s.Oversold != 0 || s.FinalStock != 0 || !s.Consistent) {
			t.Errorf("%s: %+v, want 60 sold and nothing left", s.Strategy, s)
		}
	}

	out, errOut, code = guardDrill(t, db.Password, append(common, "--strategies", "conditional,lock-cas", "--fault", "flush")...)
	if code != exitClean {
		t.Fatalf("text: exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	for _, want := range []string{"guard drill " + db.Name + ".t_stock on MariaDB", "hot row, 1 row of 30, 40 workers", "Redis fault flush", "\nconditional ", "\nlock-cas "} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	var n int
	if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'guard\_drill\_%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d scratch objects left (%v)", n, err)
	}
}

// TestDrillNodes runs lock-cas and conditional on 3 nodes: nothing
// oversold, every node made deductions, and lock-cas reports its hold
// times and the TTL advice in both formats.
func TestDrillNodes(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable)
	srv := dbtest.Redis(t)
	common := []string{"--dsn", db.DSN, "--redis", srv.Addr(), "--table", "t_stock", "--workers", "12", "--conns", "9",
		"--stock", "30", "--nodes", "3", "--strategies", "conditional,lock-cas"}
	out, errOut, code := guardDrill(t, db.Password, append(common, "--format", "json")...)
	if code != exitClean {
		t.Fatalf("exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	var rep struct {
		Nodes      int `json:"nodes"`
		Strategies []struct {
			Strategy   string  `json:"strategy"`
			Successes  int64   `json:"successes"`
			Oversold   int64   `json:"oversold"`
			FinalStock int64   `json:"final_stock"`
			Consistent bool    `json:"consistent"`
			Ops        int64   `json:"ops"`
			NodeOps    []int64 `json:"node_ops"`
			LockHold   *struct {
				Holds  int64   `json:"holds"`
				P50MS  float64 `json:"p50_ms"`
				P99MS  float64 `json:"p99_ms"`
				MaxMS  float64 `json:"max_ms"`
				TTLMS  float64 `json:"ttl_ms"`
				MinMS  float64 `json:"advised_ttl_min_ms"`
				HighMS float64 `json:"advised_ttl_max_ms"`
				Fit    string  `json:"ttl_fit"`
			} `json:"lock_hold"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Nodes != 3 || len(rep.Strategies) != 2 {
		t.Fatalf("report: %s", out)
	}
	for _, s := range rep.Strategies {
		if s.Successes != 30 || s.Oversold != 0 || s.FinalStock != 0 || !s.Consistent {
			t.Errorf("%s: %+v, want 30 sold and nothing left", s.Strategy, s)
		}
		var sum int64
		for i, n := range s.NodeOps {
			if n == 0 {
				t.Errorf("%s: node %d made no deduction", s.Strategy, i+1)
			}
			sum += n
		}
		if len(s.NodeOps) != 3 || sum != s.Ops {
			t.Errorf("%s: node ops %v, want 3 nodes adding up to %d", s.Strategy, s.NodeOps, s.Ops)
		}
	}
	if rep.Strategies[0].LockHold != nil {
		t.Errorf("conditional reports a lock hold: %+v", rep.Strategies[0].LockHold)
	}
	h := rep.Strategies[1].LockHold
	switch {
	case h == nil:
		t.Fatalf("lock-cas reports no lock hold:\n%s", out)
	case h.Holds == 0 || h.P50MS <= 0 || h.P99MS < h.P50MS || h.MaxMS < h.P99MS:
		t.Errorf("lock hold: %+v", h)
	case h.TTLMS != 3000 || math.Abs(h.MinMS-3*h.MaxMS) > 0.005 || math.Abs(h.HighMS-5*h.MaxMS) > 0.005:
		t.Errorf("TTL advice: %+v, want 3s against 3-5x the max hold", h)
	}
	wantFit := "inside"
	if h.TTLMS > h.HighMS {
		wantFit = "above"
	} else if h.TTLMS < h.MinMS {
		wantFit = "below"
	}
	if h.Fit != wantFit {
		t.Errorf("TTL fit %q of %+v, want %q", h.Fit, h, wantFit)
	}

	out, errOut, code = guardDrill(t, db.Password, common...)
	if code != exitClean {
		t.Fatalf("text: exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	for _, want := range []string{"12 workers on 3 nodes", "note: lock-cas held the lock p50 ", "a TTL of 3-5x the worst critical section is ", "the configured 3s is "} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// TestDrillInputErrors: what the drill refuses is exit 2 with a message
// saying why; an unreachable server is exit 3.
func TestDrillInputErrors(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable, `CREATE TABLE t_nopk (stock INT NOT NULL)`)
	base := []string{"--dsn", db.DSN, "--strategies", "conditional"}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no primary key", append(base, "--table", "t_nopk"), exitInput, "cannot drill t_nopk: it has no primary key"},
		{"no table", append(base, "--table", "t_none"), exitInput, "no base table t_none"},
		{"restart fault", append(base, "--table", "t_stock", "--fault", "restart"), exitInput, "needs a Redis the drill can restart: run it from the test harness"},
		{"lock-cas without redis", []string{"--dsn", db.DSN, "--table", "t_stock"}, exitInput, "lock-cas needs a Redis"},
		{"unknown strategy", append(base, "--table", "t_stock", "--strategies", "optimistic"), exitInput, `unknown strategy "optimistic"`},
		{"format", append(base, "--table", "t_stock", "--format", "sarif"), exitInput, `--format "sarif"`},
		{"bad rows", append(base, "--table", "t_stock", "--rows", "0"), exitInput, "rows 0"},
		{"no nodes", append(base, "--table", "t_stock", "--nodes", "0"), exitInput, "--nodes 0: want 1 or more"},
		{"nodes above workers", append(base, "--table", "t_stock", "--nodes", "5", "--workers", "4"), exitInput, "nodes 5: at most one per worker"},
		{"bad redis url", append(base, "--table", "t_stock", "--redis", "redis://:pw@[::1"), exitInput, "--redis: Redis address: invalid host"},
		{"no dsn", []string{"--table", "t_stock"}, exitInput, "no database"},
		{"unreachable", []string{"--dsn", "u:" + db.Password + "@tcp(" + closedPort(t) + ")/x", "--table", "t_stock", "--strategies", "naive"}, exitRuntime, "connect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GUARD_DSN", "")
			_, errOut, code := guardDrill(t, db.Password, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d; stderr %q, want it to say %q", code, tt.code, dbtest.Redact(errOut), tt.want)
			}
		})
	}
}

// TestDrillInterrupted cancels the command's context mid-run, as Ctrl-C
// does: exit 3, a message saying the scratch table was dropped, and it is.
func TestDrillInterrupted(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ctx.Err() == nil {
			var n int
			db.SQL.QueryRow(`SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'guard\_drill\_%'`).Scan(&n)
			if n == 2 {
				time.Sleep(200 * time.Millisecond)
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"guard", "drill", "--dsn", db.DSN, "--table", "t_stock", "--strategies", "conditional",
		"--stock", "100000000", "--workers", "20", "--conns", "8"}, &out, &errb)
	if code != exitRuntime || !strings.Contains(errb.String(), "drill interrupted") || !strings.Contains(errb.String(), "dropped") {
		t.Errorf("exit %d, stderr %q: want 3 and the interruption", code, dbtest.Redact(errb.String()))
	}
	var n int
	if err := db.SQL.QueryRow(`SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'guard\_drill\_%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d scratch objects left after the interruption (%v)", n, err)
	}
}

// TestDrillConnectionBudget runs drills of many nodes on a server of its
// own with a low max_connections: --conns is the budget of every node
// together, more nodes than connections is refused before anything runs,
// and a budget above max_connections too, instead of failing mid-run with
// Error 1040.
func TestDrillConnectionBudget(t *testing.T) {
	db := dbtest.PrivateMySQL(t)
	db.Exec(t, drillTable, `INSERT INTO t_stock (sku, stock) VALUES ('a', 3)`)
	srv := db.Server()
	status := func(name string) int {
		t.Helper()
		var n int
		if err := srv.Root().QueryRow("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = ?", name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const budget = 10
	inUse := status("THREADS_CONNECTED")
	maxConns := inUse + budget + 2
	srv.Exec(t, fmt.Sprintf("SET GLOBAL max_connections = %d", maxConns))
	common := []string{"--dsn", db.DSN, "--table", "t_stock", "--strategies", "conditional,for-update", "--stock", "200"}

	t.Run("within the budget", func(t *testing.T) {
		srv.Exec(t, "FLUSH STATUS")
		before := status("THREADS_CONNECTED")
		out, errOut, code := guardDrill(t, db.Password, append(common, "--workers", "40", "--nodes", "4", "--conns", strconv.Itoa(budget), "--format", "json")...)
		if code != exitClean {
			t.Fatalf("exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
		}
		if used := status("MAX_USED_CONNECTIONS"); used > before+budget {
			t.Errorf("%d connections at most, %d before the drill: the drill opened more than --conns %d", used, before, budget)
		}
		if !strings.Contains(out, `"nodes": 4`) {
			t.Errorf("report:\n%s", out)
		}
	})
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"more nodes than --conns", []string{"--workers", "40", "--nodes", "30", "--conns", strconv.Itoa(budget)}, "--nodes 30 needs a connection per node: more than --conns 10"},
		{"default budget raised to the nodes", []string{"--workers", "80", "--nodes", "70"},
			fmt.Sprintf("--nodes 70 needs 70 connections (one per node), more than the server's max_connections %d", maxConns)},
		{"budget above max_connections", []string{"--workers", "40", "--conns", "200"},
			fmt.Sprintf("the drill opens up to 40 connections (--conns 200, at most one per worker), more than the server's max_connections %d", maxConns)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv.Exec(t, "FLUSH STATUS")
			_, errOut, code := guardDrill(t, db.Password, append(common, tt.args...)...)
			if code != exitInput || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d; stderr does not say %q:\n%s", code, exitInput, tt.want, dbtest.Redact(errOut))
			}
			if strings.Contains(errOut, "1040") {
				t.Errorf("the server refused a connection:\n%s", dbtest.Redact(errOut))
			}
		})
	}
}

// TestDrillRedisDown kills Redis while lock-cas runs and starts it again:
// the drill goes on on the compare-and-set alone, and the failed dials of
// the outage are one line with their count, not one line each.
func TestDrillRedisDown(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable, `INSERT INTO t_stock (sku, stock) VALUES ('a', 3)`)
	srv := dbtest.Redis(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outage := make(chan struct{})
	go func() {
		defer close(outage)
		// Once lock-cas holds a lock, Redis goes away for a second.
		for ctx.Err() == nil {
			if keys, _ := srv.Client().Keys(ctx, "lock:*").Result(); len(keys) > 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if ctx.Err() != nil {
			return
		}
		srv.Kill()
		time.Sleep(time.Second)
		srv.Start()
	}()
	_, errOut, code := guardDrill(t, db.Password, "--dsn", db.DSN, "--redis", srv.Addr(), "--table", "t_stock",
		"--strategies", "lock-cas", "--stock", "100000000", "--workers", "40", "--conns", "8", "--duration", "4s")
	<-outage
	if code != exitClean {
		t.Fatalf("exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	var dials []string
	for _, line := range strings.Split(errOut, "\n") {
		if strings.Contains(line, "failed to dial") {
			dials = append(dials, line)
		}
	}
	if len(dials) != 1 || !strings.Contains(dials[0], "redis "+srv.Addr()+": failed to dial ×") || !strings.Contains(dials[0], "(first: ") {
		t.Errorf("%d lines of failed dials, want one with its count:\n%s", len(dials), strings.Join(dials[:min(len(dials), 5)], "\n"))
	}
}
