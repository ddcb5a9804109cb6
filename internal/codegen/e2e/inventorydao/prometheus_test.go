package inventorydao

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestPrometheusMetricsAddUp runs the sale of 300 workers through the
// generated DAO with NewPrometheusMetrics, scrapes its registry over HTTP as
// Prometheus would, and checks the counters against what the workers saw.
// With one attempt per call every call that reached the database is one
// CAS outcome: ok + conflict + insufficient = the attempts that got that
// far, each kind as the workers counted it. Deleting the lock keys under
// two DAOs (two application nodes, one registry) makes conflicts and lost
// releases to count.
func TestPrometheusMetricsAddUp(t *testing.T) {
	if testing.Short() {
		t.Skip("300-way sales on MariaDB and Redis: not in -short")
	}
	for _, tc := range []struct {
		name  string
		fault func(ctx context.Context, s *sale)
	}{
		{name: "no fault"},
		{name: "lock keys deleted continuously", fault: func(ctx context.Context, s *sale) {
			c := quickClient(s.t, s.srv.Addr())
			key := s.dao.lock.key(s.id)
			for ctx.Err() == nil {
				c.Del(ctx, key)
				time.Sleep(time.Millisecond)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			metrics := NewPrometheusMetrics(reg)
			opts := []Option{WithMaxAttempts(1), WithMetrics(metrics)}
			var deduct func(s *sale) func(ctx context.Context, id, n int64) error
			if tc.fault != nil {
				// One deduction per hold of the lock: combined, the 300 calls
				// fit in a couple of holds, which the deleter may never meet.
				opts = append(opts, WithCombine(1))
				deduct = twoNodes(append([]Option{WithLockWait(2 * time.Second)}, opts...))
			}
			s := runSale(t, scenario{name: tc.name, fault: tc.fault, opts: opts, batched: true}, deduct)
			checkExact(t, s)
			checkScrape(t, s, scrape(t, reg), tc.fault != nil)
		})
	}
}

// twoNodes deducts through the sale's DAO and a second one on the same
// database and Redis, in turn: two processes whose in-process lines do not
// serialise each other.
func twoNodes(opts []Option) func(s *sale) func(ctx context.Context, id, n int64) error {
	return func(s *sale) func(ctx context.Context, id, n int64) error {
		other := NewInventoryDAO(s.db, s.rdb, opts...)
		var turn atomic.Int64
		return func(ctx context.Context, id, n int64) error {
			if turn.Add(1)%2 == 0 {
				return other.DeductInventoryLocked(ctx, id, n)
			}
			return s.dao.DeductInventoryLocked(ctx, id, n)
		}
	}
}

// checkScrape compares the scraped metrics of sale s with its workers'
// counts; faulty says Redis lost locks under the sale.
func checkScrape(t *testing.T, s *sale, families map[string]*dto.MetricFamily, faulty bool) {
	t.Helper()
	table := "t_inventory"
	cas := func(result string) int64 { return counter(families, "guard_cas_total", table, result) }
	ok, conflict, insufficient := cas("ok"), cas("conflict"), cas("insufficient")
	attempts := s.attempts.Load() - s.notAcquired.Load() - s.lost.Load()
	t.Logf("scraped: cas ok %d conflict %d insufficient %d not_found %d; %d attempts reached the database",
		ok, conflict, insufficient, cas("not_found"), attempts)
	if ok+conflict+insufficient != attempts {
		t.Errorf("ok %d + conflict %d + insufficient %d = %d, want the %d attempts that reached the database",
			ok, conflict, insufficient, ok+conflict+insufficient, attempts)
	}
	if ok != s.succeeded.Load() || ok != stock || insufficient != s.insufficient.Load() || conflict != s.conflicts.Load() {
		t.Errorf("cas ok %d, insufficient %d, conflict %d; the workers saw %d sales (stock %d), %d refusals, %d conflicts",
			ok, insufficient, conflict, s.succeeded.Load(), stock, s.insufficient.Load(), s.conflicts.Load())
	}
	if nf := cas("not_found"); nf != 0 {
		t.Errorf("cas not_found %d, want 0", nf)
	}

	acquired := counter(families, "guard_lock_acquire_total", table, "ok")
	released := int64(0)
	for _, r := range []string{"ok", "expired", "not_owner", "error"} {
		released += counter(families, "guard_lock_release_total", table, r)
	}
	held := histogramCount(families, "guard_lock_hold_seconds", table)
	if acquired == 0 || released != acquired || held != acquired {
		t.Errorf("locks acquired %d, released %d, hold times %d: every lock taken is released once and timed once", acquired, released, held)
	}
	if taken := counter(families, "guard_lock_acquire_total", table, "taken"); taken != s.notAcquired.Load() {
		t.Errorf("lock acquire taken %d, want the %d ErrLockNotAcquired the workers saw", taken, s.notAcquired.Load())
	}
	if errs := counter(families, "guard_lock_acquire_total", table, "error"); errs != 0 {
		t.Errorf("lock acquire errors %d: Redis stayed up", errs)
	}
	releasedOK := counter(families, "guard_lock_release_total", table, "ok")
	renew := counter(families, "guard_lock_renew_failures_total", table, "")
	switch {
	case !faulty && (releasedOK != released || renew != 0 || conflict != 0):
		t.Errorf("without a fault: releases ok %d of %d, renew failures %d, conflicts %d; want every release ok and nothing else", releasedOK, released, renew, conflict)
	case faulty && (releasedOK == released || renew < s.lost.Load()):
		t.Errorf("lock keys deleted: releases ok %d of %d, renew failures %d for %d lost locks; want lost releases counted", releasedOK, released, renew, s.lost.Load())
	}
}

// TestPrometheusLockHoldTime checks that the histogram sees the time a
// lock was held: a holder that works 30ms lands above the 25ms bucket.
func TestPrometheusLockHoldTime(t *testing.T) {
	reg := prometheus.NewRegistry()
	l := newTestLocker(dbtest.Redis(t).Client(), time.Second, time.Second, NewPrometheusMetrics(reg))
	h := mustAcquire(t, l, l.key(7))
	time.Sleep(30 * time.Millisecond)
	h.release()
	f := scrape(t, reg)["guard_lock_hold_seconds"]
	if f == nil || len(f.Metric) != 1 {
		t.Fatalf("guard_lock_hold_seconds: %v", f)
	}
	hist := f.Metric[0].GetHistogram()
	if hist.GetSampleCount() != 1 || hist.GetSampleSum() < 0.03 || hist.GetSampleSum() > 1 {
		t.Errorf("hold histogram count %d sum %v, want one sample of about 0.03s", hist.GetSampleCount(), hist.GetSampleSum())
	}
	for _, b := range hist.GetBucket() {
		if b.GetUpperBound() == 0.025 && b.GetCumulativeCount() != 0 {
			t.Errorf("a 30ms hold counted in the 25ms bucket")
		}
	}
	// A second set on the same registry counts into the same series.
	NewPrometheusMetrics(reg).CAS(tableInventory, CASConflict)
	NewPrometheusMetrics(reg).CAS(tableInventory, CASConflict)
	if got := counter(scrape(t, reg), "guard_cas_total", tableInventory, "conflict"); got != 2 {
		t.Errorf("two Metrics on one registry: conflict %d, want 2", got)
	}
	// Other metrics of the same names are a programming error that must
	// not go unnoticed.
	clash := prometheus.NewRegistry()
	clash.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "guard_cas_total", Help: "another"}))
	defer func() {
		if recover() == nil {
			t.Errorf("NewPrometheusMetrics on a registry with another guard_cas_total did not panic")
		}
	}()
	NewPrometheusMetrics(clash)
}

// scrape reads reg over HTTP in the text format, as a Prometheus server does.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse the scrape: %v", err)
	}
	return families
}

// counter is the value of the counter name{table, result} (result "" for a
// counter without it), 0 when the series is absent.
func counter(families map[string]*dto.MetricFamily, name, table, result string) int64 {
	f := families[name]
	if f == nil {
		return 0
	}
	for _, m := range f.Metric {
		if label(m, "table") == table && label(m, "result") == result {
			return int64(m.GetCounter().GetValue())
		}
	}
	return 0
}

// histogramCount is the sample count of the histogram name{table}.
func histogramCount(families map[string]*dto.MetricFamily, name, table string) int64 {
	f := families[name]
	if f == nil {
		return 0
	}
	for _, m := range f.Metric {
		if label(m, "table") == table {
			return int64(m.GetHistogram().GetSampleCount())
		}
	}
	return 0
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.Label {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
