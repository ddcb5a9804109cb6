package drill

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Report is what a drill found.
type Report struct {
	Table, Database string
	// Server is the flavor and version, e.g. "MariaDB 10.11.6".
	Server string
	// Scratch and View are the copy and its view, dropped by now.
	Scratch, View string
	// PrimaryKey, Counter and Version are the target's columns the view
	// maps to id, stock and version; VersionAdded says the copy got Version.
	PrimaryKey, Counter, Version string
	VersionAdded                 bool
	Rows                         int
	Stock                        int64
	Workers                      int
	// Nodes are the application nodes the workers were split over.
	Nodes    int
	Duration time.Duration
	Fault    Fault
	// Notes say what the reader should know about the table.
	Notes   []string
	Results []*Result
}

// Result is what one strategy did.
type Result struct {
	Strategy Strategy
	// Successes are the deductions that reported a sale; Oversold the
	// sales beyond each row's stock, summed.
	Successes, Oversold int64
	// FinalStock is read from the scratch table after the run;
	// ExpectedStock is stock - successes; Consistent says each row holds
	// exactly its stock minus its sales.
	FinalStock, ExpectedStock int64
	Consistent                bool
	// Insufficient deductions changed nothing for want of stock; Refused
	// ones changed nothing for a reason worth a retry (a lost
	// compare-and-set, a lock not taken, a deadlock).
	Insufficient, Refused int64
	// Ops are the deductions made, Elapsed the time they took, OpsPerSec
	// the sales per second.
	Ops       int64
	Elapsed   time.Duration
	OpsPerSec float64
	// P50, P99 and Max are the latencies of one deduction, retries within
	// it included.
	P50, P99, Max time.Duration
	// CASConflicts counts the compare-and-sets that lost (cas, lock-cas).
	CASConflicts int64
	// LockTaken counts the locks not acquired within the wait, LockError
	// those Redis failed to give (the work went on unlocked), LockLost
	// those that expired or were taken over while held (lock-cas).
	LockTaken, LockError, LockLost int64
	// NodeOps are the deductions made on each node, in node order.
	NodeOps []int64
	// LockHolds counts the locks released (lock-cas); HeldP50, HeldP99
	// and HeldMax are how long they were held, from the SET NX to the
	// release; LockTTL is the TTL they were taken with.
	LockHolds                 int64
	HeldP50, HeldP99, HeldMax time.Duration
	LockTTL                   time.Duration
	// Latency is the distribution of the latencies P50, P99 and Max come
	// from, in the bins of LatencyBounds.
	Latency []LatencyBin
}

// TTL advice: a lock's TTL should be this many times the worst critical
// section measured, from the first to the second (seed 001 §7.2).
const (
	ttlAdviceLow  = 3
	ttlAdviceHigh = 5
)

// AdvisedTTL returns the TTL range advised from the longest hold
// measured; ok is false when no lock was held.
func (r *Result) AdvisedTTL() (lo, hi time.Duration, ok bool) {
	if r.LockHolds == 0 {
		return 0, 0, false
	}
	return ttlAdviceLow * r.HeldMax, ttlAdviceHigh * r.HeldMax, true
}

// TTLFit says where the configured TTL stands against the advised range:
// "below" (a holder may outlive its lock), "inside" or "above" (a holder
// that dies blocks the row longer than needed); "" when no lock was held.
func (r *Result) TTLFit() string {
	lo, hi, ok := r.AdvisedTTL()
	switch {
	case !ok:
		return ""
	case r.LockTTL < lo:
		return "below"
	case r.LockTTL > hi:
		return "above"
	}
	return "inside"
}

// TTLNote is the report's sentence on the lock hold time and the TTL; ""
// when no lock was held.
func (r *Result) TTLNote() string {
	lo, hi, ok := r.AdvisedTTL()
	if !ok {
		return ""
	}
	why := map[string]string{
		"below":  "a holder may outlive its lock: raise the TTL",
		"inside": "as advised",
		"above":  "safe, but a holder that dies blocks the row for the whole TTL",
	}[r.TTLFit()]
	return fmt.Sprintf("%s held the lock p50 %s, p99 %s, max %s over %d holds; a TTL of %d-%dx the worst critical section is %s-%s: the configured %s is %s it (%s)",
		r.Strategy, formatLatency(r.HeldP50), formatLatency(r.HeldP99), formatLatency(r.HeldMax), r.LockHolds,
		ttlAdviceLow, ttlAdviceHigh, formatLatency(lo), formatLatency(hi), r.LockTTL, r.TTLFit(), why)
}

// Guarded reports whether the strategy is meant to be correct: every one
// but naive.
func (r *Result) Guarded() bool { return r.Strategy != Naive }

// Held reports whether the strategy sold nothing twice and left each row
// at its stock minus its sales.
func (r *Result) Held() bool { return r.Oversold == 0 && r.Consistent }

// Failed lists the guarded strategies that did not hold.
func (rep *Report) Failed() []Strategy {
	var out []Strategy
	for _, r := range rep.Results {
		if r.Guarded() && !r.Held() {
			out = append(out, r.Strategy)
		}
	}
	return out
}

// Mode is "hot row" with one row, "spread" with more.
func (rep *Report) Mode() string {
	if rep.Rows == 1 {
		return "hot row"
	}
	return "spread"
}

// Result returns the result of strategy s, or nil.
func (rep *Report) Result(s Strategy) *Result {
	for _, r := range rep.Results {
		if r.Strategy == s {
			return r
		}
	}
	return nil
}

// Heading is the report's first line: the table, the server, the mode, the
// rows and stock, the workers and nodes, how long, the fault.
func (rep *Report) Heading() string {
	var b strings.Builder
	until := "until sold out"
	if rep.Duration > 0 {
		until = "for " + rep.Duration.String() + " or until sold out"
	}
	rows := "1 row"
	if rep.Rows != 1 {
		rows = fmt.Sprintf("%d rows", rep.Rows)
	}
	nodes := ""
	if rep.Nodes > 1 {
		nodes = fmt.Sprintf(" on %d nodes", rep.Nodes)
	}
	fmt.Fprintf(&b, "guard drill %s.%s on %s: %s, %s of %d, %d workers%s, %s", rep.Database, rep.Table, rep.Server,
		rep.Mode(), rows, rep.Stock, rep.Workers, nodes, until)
	if rep.Fault != NoFault {
		fmt.Fprintf(&b, ", Redis fault %s during lock-cas", rep.Fault)
	}
	return b.String()
}

// ScratchLine says which copy the drill worked on and how its columns map
// to the drill's.
func (rep *Report) ScratchLine() string {
	added := ""
	if rep.VersionAdded {
		added = " (added to the copy)"
	}
	return fmt.Sprintf("scratch copy %s (dropped): %s as id, %s as stock, %s as version%s",
		rep.Scratch, rep.PrimaryKey, rep.Counter, rep.Version, added)
}

// WriteText writes the report as a table with a heading and notes.
func WriteText(w io.Writer, rep *Report) error {
	var b strings.Builder
	b.WriteString(rep.Heading() + "\n")
	b.WriteString(rep.ScratchLine() + "\n\n")

	table := [][]string{{"strategy", "sold", "oversold", "final", "consistent", "ops/s", "p50", "p99", "max", "conflicts", "lock taken/error/lost"}}
	for _, r := range rep.Results {
		conflicts, lock := "-", "-"
		if r.Strategy == CAS || r.Strategy == LockCAS {
			conflicts = strconv.FormatInt(r.CASConflicts, 10)
		}
		if r.Strategy == LockCAS {
			lock = fmt.Sprintf("%d/%d/%d", r.LockTaken, r.LockError, r.LockLost)
		}
		consistent := "yes"
		if !r.Consistent {
			consistent = "NO"
		}
		table = append(table, []string{string(r.Strategy), strconv.FormatInt(r.Successes, 10), strconv.FormatInt(r.Oversold, 10),
			strconv.FormatInt(r.FinalStock, 10), consistent, strconv.FormatFloat(r.OpsPerSec, 'f', 0, 64),
			formatLatency(r.P50), formatLatency(r.P99), formatLatency(r.Max), conflicts, lock})
	}
	writeColumns(&b, table)

	if notes := rep.AllNotes(); len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("note: " + n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// AllNotes are Notes and what the results add: whether naive oversold, the
// lock hold times against the TTL, the guarded strategies that did not
// hold.
func (rep *Report) AllNotes() []string {
	notes := append([]string(nil), rep.Notes...)
	switch r := rep.Result(Naive); {
	case r == nil:
	case r.Oversold == 0 && r.Consistent:
		notes = append(notes, "naive did not oversell this time: its race needs reads and writes to interleave (more workers, fewer rows)")
	case r.Successes >= oversoldCap*int64(rep.Rows)*rep.Stock:
		notes = append(notes, fmt.Sprintf("naive stopped each row at %d times its stock sold: the oversell is proven", oversoldCap))
	}
	for _, r := range rep.Results {
		if n := r.TTLNote(); n != "" {
			notes = append(notes, n)
		}
	}
	for _, s := range rep.Failed() {
		notes = append(notes, fmt.Sprintf("%s did NOT hold: the table's guards let it oversell or lose updates", s))
	}
	return notes
}

// writeColumns aligns cells: the first column to the left, the others to
// the right.
func writeColumns(b *strings.Builder, table [][]string) {
	widths := make([]int, len(table[0]))
	for _, row := range table {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, row := range table {
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-len(cell))
			switch {
			case i == 0:
				b.WriteString(cell + pad)
			default:
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteString("\n")
	}
}

// formatLatency prints a latency in milliseconds with three significant
// digits or so.
func formatLatency(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64) + "ms"
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(ms, 'f', 2, 64) + "ms"
}

// jsonReport is the JSON form of a Report: durations in milliseconds.
type jsonReport struct {
	Tool         string       `json:"tool"`
	Version      string       `json:"version"`
	Database     string       `json:"database"`
	Table        string       `json:"table"`
	Server       string       `json:"server"`
	Scratch      string       `json:"scratch"`
	View         string       `json:"view"`
	PrimaryKey   string       `json:"primary_key"`
	Counter      string       `json:"counter"`
	VersionCol   string       `json:"version_column"`
	VersionAdded bool         `json:"version_added"`
	Mode         string       `json:"mode"`
	Rows         int          `json:"rows"`
	Stock        int64        `json:"stock"`
	Workers      int          `json:"workers"`
	Nodes        int          `json:"nodes"`
	DurationMS   float64      `json:"duration_ms"`
	Fault        string       `json:"fault"`
	Strategies   []jsonResult `json:"strategies"`
	Failed       []Strategy   `json:"failed"`
	Notes        []string     `json:"notes"`
}

type jsonResult struct {
	Strategy      Strategy `json:"strategy"`
	Successes     int64    `json:"successes"`
	Oversold      int64    `json:"oversold"`
	FinalStock    int64    `json:"final_stock"`
	ExpectedStock int64    `json:"expected_stock"`
	Consistent    bool     `json:"consistent"`
	Insufficient  int64    `json:"insufficient"`
	Refused       int64    `json:"refused"`
	Ops           int64    `json:"ops"`
	ElapsedMS     float64  `json:"elapsed_ms"`
	OpsPerSec     float64  `json:"ops_per_sec"`
	P50MS         float64  `json:"p50_ms"`
	P99MS         float64  `json:"p99_ms"`
	MaxMS         float64  `json:"max_ms"`
	CASConflicts  int64    `json:"cas_conflicts"`
	LockTaken     int64    `json:"lock_taken"`
	LockError     int64    `json:"lock_error"`
	LockLost      int64    `json:"lock_lost"`
	NodeOps       []int64  `json:"node_ops"`
	// LockHold is there for the strategies that took locks.
	LockHold *jsonLockHold `json:"lock_hold,omitempty"`
}

// jsonLockHold is the lock hold time and the TTL advice of a Result.
type jsonLockHold struct {
	Holds        int64   `json:"holds"`
	P50MS        float64 `json:"p50_ms"`
	P99MS        float64 `json:"p99_ms"`
	MaxMS        float64 `json:"max_ms"`
	TTLMS        float64 `json:"ttl_ms"`
	AdvisedMinMS float64 `json:"advised_ttl_min_ms"`
	AdvisedMaxMS float64 `json:"advised_ttl_max_ms"`
	TTLFit       string  `json:"ttl_fit"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// WriteJSON writes the report as one indented JSON document; version is
// guard's.
func WriteJSON(w io.Writer, rep *Report, version string) error {
	out := jsonReport{
		Tool: "guard", Version: version, Database: rep.Database, Table: rep.Table, Server: rep.Server,
		Scratch: rep.Scratch, View: rep.View, PrimaryKey: rep.PrimaryKey, Counter: rep.Counter,
		VersionCol: rep.Version, VersionAdded: rep.VersionAdded, Mode: rep.Mode(), Rows: rep.Rows,
		Stock: rep.Stock, Workers: rep.Workers, Nodes: rep.Nodes, DurationMS: ms(rep.Duration), Fault: string(rep.Fault),
		Strategies: []jsonResult{}, Failed: rep.Failed(), Notes: rep.Notes,
	}
	if out.Failed == nil {
		out.Failed = []Strategy{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	for _, r := range rep.Results {
		var hold *jsonLockHold
		if lo, hi, ok := r.AdvisedTTL(); ok {
			hold = &jsonLockHold{Holds: r.LockHolds, P50MS: ms(r.HeldP50), P99MS: ms(r.HeldP99), MaxMS: ms(r.HeldMax),
				TTLMS: ms(r.LockTTL), AdvisedMinMS: ms(lo), AdvisedMaxMS: ms(hi), TTLFit: r.TTLFit()}
		}
		nodeOps := r.NodeOps
		if nodeOps == nil {
			nodeOps = []int64{}
		}
		out.Strategies = append(out.Strategies, jsonResult{
			Strategy: r.Strategy, Successes: r.Successes, Oversold: r.Oversold, FinalStock: r.FinalStock,
			ExpectedStock: r.ExpectedStock, Consistent: r.Consistent, Insufficient: r.Insufficient, Refused: r.Refused,
			Ops: r.Ops, ElapsedMS: ms(r.Elapsed), OpsPerSec: float64(int64(r.OpsPerSec*10+0.5)) / 10,
			P50MS: ms(r.P50), P99MS: ms(r.P99), MaxMS: ms(r.Max),
			CASConflicts: r.CASConflicts, LockTaken: r.LockTaken, LockError: r.LockError, LockLost: r.LockLost,
			NodeOps: nodeOps, LockHold: hold,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write the drill report: %w", err)
	}
	return nil
}
