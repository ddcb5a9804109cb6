package main

import (
	"github.com/guard-sql/guard/internal/drill"
	"github.com/guard-sql/guard/internal/report"
)

// drillHTML is what the html report shows of a drill: report knows
// nothing of the drill's own types.
func drillHTML(rep *drill.Report) *report.Drill {
	d := &report.Drill{Heading: rep.Heading(), Scratch: rep.ScratchLine(), Notes: rep.AllNotes()}
	for _, s := range rep.Failed() {
		d.Failed = append(d.Failed, string(s))
	}
	for _, r := range rep.Results {
		s := report.DrillStrategy{
			Name: string(r.Strategy), Guarded: r.Guarded(), Held: r.Held(),
			Sold: r.Successes, Oversold: r.Oversold, Final: r.FinalStock, Expected: r.ExpectedStock, Consistent: r.Consistent,
			Insufficient: r.Insufficient, Refused: r.Refused, Ops: r.Ops, Elapsed: r.Elapsed, OpsPerSec: r.OpsPerSec,
			P50: r.P50, P99: r.P99, Max: r.Max, Conflicts: -1,
		}
		if r.Strategy == drill.CAS || r.Strategy == drill.LockCAS {
			s.Conflicts = r.CASConflicts
		}
		if r.Strategy == drill.LockCAS {
			l := &report.DrillLock{Taken: r.LockTaken, Errors: r.LockError, Lost: r.LockLost, Holds: r.LockHolds,
				P50: r.HeldP50, P99: r.HeldP99, Max: r.HeldMax, TTL: r.LockTTL, Fit: r.TTLFit(), Advice: r.TTLNote()}
			l.AdvisedMin, l.AdvisedMax, _ = r.AdvisedTTL()
			s.Lock = l
		}
		for _, b := range r.Latency {
			s.Latency = append(s.Latency, report.LatencyBin{Upper: b.Upper, Count: b.Count})
		}
		d.Strategies = append(d.Strategies, s)
	}
	return d
}
