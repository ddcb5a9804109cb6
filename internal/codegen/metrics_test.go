package codegen

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPrometheusFile checks the shape of guard_prometheus.go: only with
// --metrics prometheus, the names of DESIGN §7, and the TTL thresholds
// among the hold-time buckets.
func TestPrometheusFile(t *testing.T) {
	if _, ok := renderCase(t, goldenCases[0], "inventorydao")[PrometheusFile]; ok {
		t.Errorf("%s generated without --metrics", PrometheusFile)
	}
	files := renderCase(t, e2eCase(), "inventorydao")
	src := string(files[PrometheusFile])
	for _, want := range []string{
		"func NewPrometheusMetrics(reg prometheus.Registerer) Metrics {",
		`"guard_lock_acquire_total"`, `"guard_lock_release_total"`, `"guard_lock_renew_failures_total"`, `"guard_cas_total"`, `"guard_lock_hold_seconds"`,
		`[]string{"table", "result"}`, `}, []string{"table"}),`,
		"var LockHoldBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 3, 5, 10, 30, 60}",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("%s lacks %q", PrometheusFile, want)
		}
	}
	for _, imp := range importsOf(t, PrometheusFile, files[PrometheusFile]) {
		if imp != "fmt" && imp != "time" && imp != "github.com/prometheus/client_golang/prometheus" {
			t.Errorf("%s imports %s", PrometheusFile, imp)
		}
	}
	for name, b := range files {
		if name == PrometheusFile {
			continue
		}
		for _, imp := range importsOf(t, name, b) {
			if !allowedImport(imp) {
				t.Errorf("%s imports %s: only %s may import client_golang", name, imp, PrometheusFile)
			}
		}
	}
}

func TestHoldBuckets(t *testing.T) {
	for _, tc := range []struct {
		ttl  time.Duration
		want []string // bounds that must be present
	}{
		{3 * time.Second, []string{"1", "3"}},
		{10 * time.Second, []string{"3.333333", "10"}},
		{500 * time.Millisecond, []string{"0.166667", "0.5"}},
	} {
		m, err := newMetrics(MetricsPrometheus, Lock{TTL: tc.ttl})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !slices.Contains(m.HoldBuckets, w) {
				t.Errorf("ttl %v: buckets %v lack %s", tc.ttl, m.HoldBuckets, w)
			}
		}
		var bounds []float64
		for _, b := range m.HoldBuckets {
			f, err := strconv.ParseFloat(b, 64)
			if err != nil {
				t.Fatal(err)
			}
			bounds = append(bounds, f)
		}
		if !slices.IsSorted(bounds) || len(slices.Compact(slices.Clone(bounds))) != len(bounds) {
			t.Errorf("ttl %v: buckets %v not ascending", tc.ttl, m.HoldBuckets)
		}
	}
	if _, err := newMetrics("statsd", Lock{TTL: time.Second}); err == nil {
		t.Errorf("unknown backend accepted")
	}
}
