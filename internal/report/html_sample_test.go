package report

import (
	"math"
	"time"
)

// sampleBins spreads n deductions over the bins of the drill's latency
// distribution, peaking at bin peak.
func sampleBins(n int64, peak int) []LatencyBin {
	uppers := []time.Duration{100 * time.Microsecond, 200 * time.Microsecond, 500 * time.Microsecond, time.Millisecond,
		2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond,
		100 * time.Millisecond, math.MaxInt64}
	out := make([]LatencyBin, len(uppers))
	left := n
	for i := range uppers {
		out[i].Upper = uppers[i]
		d := i - peak
		if d < 0 {
			d = -d
		}
		if d <= 2 && left > 0 {
			c := n / int64(2<<d)
			c = min(c, left)
			out[i].Count, left = c, left-c
		}
	}
	out[peak].Count += left
	return out
}

// sampleDrill is a drill of every strategy: naive oversold, lock-cas took
// locks well below its TTL.
func sampleDrill() *Drill {
	return &Drill{
		Heading: "guard drill shop.t_stock on MariaDB 10.11.6: hot row, 1 row of 300, 40 workers, until sold out",
		Scratch: "scratch copy guard_drill_1 (dropped): id as id, stock as stock, version as version",
		Strategies: []DrillStrategy{
			{Name: "naive", Sold: 420, Oversold: 120, Final: 0, Expected: -120, Consistent: false, Ops: 500, Refused: 0, Insufficient: 80,
				Elapsed: 90 * time.Millisecond, OpsPerSec: 4666, P50: 800 * time.Microsecond, P99: 4 * time.Millisecond, Max: 9 * time.Millisecond,
				Conflicts: -1, Latency: sampleBins(500, 3)},
			{Name: "for-update", Guarded: true, Held: true, Sold: 300, Final: 0, Consistent: true, Ops: 340, Insufficient: 40,
				Elapsed: 300 * time.Millisecond, OpsPerSec: 1000, P50: 6 * time.Millisecond, P99: 30 * time.Millisecond, Max: 41 * time.Millisecond,
				Conflicts: -1, Latency: sampleBins(340, 6)},
			{Name: "conditional", Guarded: true, Held: true, Sold: 300, Final: 0, Consistent: true, Ops: 340, Insufficient: 40,
				Elapsed: 60 * time.Millisecond, OpsPerSec: 5000, P50: 500 * time.Microsecond, P99: 3 * time.Millisecond, Max: 5 * time.Millisecond,
				Conflicts: -1, Latency: sampleBins(340, 2)},
			{Name: "cas", Guarded: true, Held: true, Sold: 300, Final: 0, Consistent: true, Ops: 340, Insufficient: 40, Refused: 12,
				Elapsed: 150 * time.Millisecond, OpsPerSec: 2000, P50: 2 * time.Millisecond, P99: 12 * time.Millisecond, Max: 20 * time.Millisecond,
				Conflicts: 210, Latency: sampleBins(340, 4)},
			{Name: "lock-cas", Guarded: true, Held: true, Sold: 300, Final: 0, Consistent: true, Ops: 340, Insufficient: 40,
				Elapsed: 200 * time.Millisecond, OpsPerSec: 1500, P50: 3 * time.Millisecond, P99: 20 * time.Millisecond, Max: 35 * time.Millisecond,
				Conflicts: 4, Latency: sampleBins(340, 5),
				Lock: &DrillLock{Taken: 3, Errors: 0, Lost: 0, Holds: 30, P50: 1500 * time.Microsecond, P99: 8 * time.Millisecond, Max: 9 * time.Millisecond,
					TTL: 3 * time.Second, AdvisedMin: 27 * time.Millisecond, AdvisedMax: 45 * time.Millisecond, Fit: "above",
					Advice: "lock-cas held the lock p50 1.50ms, p99 8.00ms, max 9.00ms over 30 holds; a TTL of 3-5x the worst critical section is 27.0ms-45.0ms: the configured 3s is above it (safe, but a holder that dies blocks the row for the whole TTL)"}},
		},
		Notes:  []string{"naive stopped each row at 2 times its stock sold: the oversell is proven"},
		Failed: nil,
	}
}
