package codegen

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// MetricsPrometheus is the value of Options.Metrics (guard gen dao
// --metrics prometheus) that adds guard_prometheus.go.
const MetricsPrometheus = "prometheus"

// MetricsBackends lists the values Options.Metrics accepts besides "".
var MetricsBackends = []string{MetricsPrometheus}

// Metrics is the metrics backend of a generated package.
type Metrics struct {
	// Prometheus says guard_prometheus.go is generated.
	Prometheus bool
	// HoldBuckets are the bucket bounds of guard_lock_hold_seconds, in
	// seconds as Go literals: a fixed ladder plus a third of the lock TTL
	// and the TTL, where the alerts of guard gen alerts look.
	HoldBuckets []string
}

// holdLadder is the fixed part of the hold-time buckets, in seconds: from a
// fast critical section (1ms) to a lock held for a minute.
var holdLadder = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

func newMetrics(backend string, lock Lock) (Metrics, error) {
	switch backend {
	case "":
		return Metrics{}, nil
	case MetricsPrometheus:
	default:
		return Metrics{}, fmt.Errorf("metrics %q: supported is %q", backend, MetricsPrometheus)
	}
	bounds := append(slices.Clone(holdLadder), seconds(lock.TTL/3), seconds(lock.TTL))
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	m := Metrics{Prometheus: true}
	for _, b := range bounds {
		m.HoldBuckets = append(m.HoldBuckets, strconv.FormatFloat(b, 'g', -1, 64))
	}
	return m, nil
}

// seconds is d in seconds, rounded to the microsecond so that a third of a
// TTL prints short (1 rather than 0.9999999).
func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Second)
}
