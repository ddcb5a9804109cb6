package report

import (
	"html/template"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/guard-sql/guard/internal/svg"
)

// Drill is what guard drill measured, as its html report shows it. The
// command fills it from the drill's own report, so that this package
// knows nothing of how a drill runs.
type Drill struct {
	// Heading says what ran where, as the text report's first line does;
	// Scratch which copy the drill worked on and how its columns map.
	Heading, Scratch string
	Strategies       []DrillStrategy
	// Notes are what the reader should know, as the text report's notes.
	Notes []string
	// Failed names the guarded strategies that did not hold.
	Failed []string
}

// DrillStrategy is what one strategy did.
type DrillStrategy struct {
	Name string
	// Guarded is false for the strategy meant to fail (naive); Held says
	// it sold nothing twice and left each row at its stock minus its
	// sales.
	Guarded, Held bool
	// Sold counts the sales, Oversold those beyond each row's stock;
	// Final is the stock left, Expected the stock minus the sales.
	Sold, Oversold, Final, Expected int64
	Consistent                      bool
	// Insufficient and Refused count the deductions that changed nothing,
	// for want of stock or for a reason worth a retry; Ops every one.
	Insufficient, Refused, Ops int64
	Elapsed                    time.Duration
	OpsPerSec                  float64
	P50, P99, Max              time.Duration
	// Conflicts counts the compare-and-sets that lost; -1 for a strategy
	// that makes none.
	Conflicts int64
	// Lock is nil for a strategy that takes no lock.
	Lock *DrillLock
	// Latency is the distribution of the deductions' latencies, in bins of
	// increasing Upper, the same bins for every strategy.
	Latency []LatencyBin
}

// DrillLock is what the locks of a strategy did and how long they were
// held, against the TTL they were taken with.
type DrillLock struct {
	// Taken counts the locks not acquired within the wait, Errors those
	// Redis failed to give, Lost those that expired or were taken over.
	Taken, Errors, Lost int64
	// Holds counts the locks released; P50, P99 and Max are how long
	// they were held.
	Holds         int64
	P50, P99, Max time.Duration
	TTL           time.Duration
	// AdvisedMin and AdvisedMax are the TTLs advised from Max; Fit says
	// where TTL stands against them (below, inside, above), Advice says it
	// in a sentence. Holds == 0 leaves them zero.
	AdvisedMin, AdvisedMax time.Duration
	Fit, Advice            string
}

// LatencyBin counts the deductions whose latency was at most Upper and
// above the Upper of the bin before.
type LatencyBin struct {
	Upper time.Duration
	Count int64
}

// drillPage is what html/drill.tmpl shows.
type drillPage struct {
	htmlPage
	*Drill
	// The charts, drawn by internal/svg, which escapes every text in them.
	Throughput, Latency, Distribution, Locks template.HTML
	// Bins label the distribution's columns; Shares has a row per
	// strategy, a cell per bin.
	Bins   []string
	Shares []shareRow
	// Locking are the strategies that took locks.
	Locking []DrillStrategy
}

type shareRow struct {
	Name  string
	Cells []shareCell
}

type shareCell struct {
	Count   int64
	Percent string
}

// WriteDrillHTML writes the html report of a drill: per strategy, its
// throughput, latencies and their distribution, its oversold count and
// the lock hold times against the TTL, as charts and as tables.
func WriteDrillHTML(w io.Writer, d *Drill, opts Options) error {
	p := &drillPage{htmlPage: newHTMLPage("guard drill report", opts), Drill: d}
	// The TTL advice stands by the lock chart, not again among the notes.
	advice := map[string]bool{}
	for _, s := range d.Strategies {
		if s.Lock != nil && s.Lock.Advice != "" {
			advice[s.Lock.Advice] = true
		}
	}
	notes := *d
	notes.Notes = nil
	for _, n := range d.Notes {
		if !advice[n] {
			notes.Notes = append(notes.Notes, n)
		}
	}
	p.Drill = &notes
	classes := make([]string, len(d.Strategies))
	for i := range d.Strategies {
		classes[i] = "s" + strconv.Itoa(i%6)
	}
	p.Throughput = throughputChart(d.Strategies, classes)
	p.Latency = latencyChart(d.Strategies, classes)
	p.Bins, p.Shares, p.Distribution = distribution(d.Strategies, classes)
	p.Locks = lockChart(d.Strategies, classes, &p.Locking)
	return renderHTML(w, "drill", p)
}

func throughputChart(ss []DrillStrategy, classes []string) template.HTML {
	c := svg.Bars{Title: "Sales per second by strategy", Class: "throughput",
		Format: func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + "/s" }}
	for i, s := range ss {
		r := svg.Row{Name: s.Name, Class: classes[i], Values: []float64{s.OpsPerSec}}
		switch {
		case s.Oversold > 0:
			r.Note, r.NoteClass = "oversold "+strconv.FormatInt(s.Oversold, 10), "bad"
		case !s.Consistent:
			r.Note, r.NoteClass = "lost updates", "bad"
		}
		c.Rows = append(c.Rows, r)
	}
	return c.SVG()
}

// inMS is a duration in milliseconds, the unit of the latency charts.
func inMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// tickMS prints a value of a logarithmic axis in milliseconds: a power of
// ten, in seconds from 1000ms.
func tickMS(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(math.Round(v)/1000, 'f', -1, 64) + "s"
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64) + "ms"
}

// fromMS prints a chart's value in milliseconds.
func fromMS(v float64) string { return htmlMS(time.Duration(v * float64(time.Millisecond))) }

func latencyChart(ss []DrillStrategy, classes []string) template.HTML {
	c := svg.Bars{Title: "Latency of one deduction by strategy: p50, p99 and max", Class: "latency", Log: true,
		Format: fromMS, Ticks: tickMS, Kinds: []string{"p50", "p99", "max"}}
	for i, s := range ss {
		c.Rows = append(c.Rows, svg.Row{Name: s.Name, Class: classes[i], Values: []float64{inMS(s.P50), inMS(s.P99), inMS(s.Max)}})
	}
	return c.SVG()
}

// distribution is the share of each strategy's deductions in each latency
// bin, the bins no strategy reached at either end left out: the labels,
// the table's rows and the chart.
func distribution(ss []DrillStrategy, classes []string) ([]string, []shareRow, template.HTML) {
	first, last := math.MaxInt, -1
	for _, s := range ss {
		for j, b := range s.Latency {
			if b.Count > 0 {
				first, last = min(first, j), max(last, j)
			}
		}
	}
	var labels []string
	for j := first; j <= last; j++ {
		labels = append(labels, binLabel(ss, j))
	}
	c := svg.Lines{Title: "Distribution of the deductions' latencies by strategy (share of each strategy's deductions)", Class: "distribution",
		Categories: labels, Format: func(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) + "%" }}
	var rows []shareRow
	for i, s := range ss {
		var total int64
		for _, b := range s.Latency {
			total += b.Count
		}
		series := svg.Series{Name: s.Name, Class: classes[i]}
		row := shareRow{Name: s.Name}
		for j := first; j <= last; j++ {
			var n int64
			if j < len(s.Latency) {
				n = s.Latency[j].Count
			}
			share := 0.0
			if total > 0 {
				share = 100 * float64(n) / float64(total)
			}
			series.Values = append(series.Values, share)
			series.Notes = append(series.Notes, plural(int(n), "deduction", "deductions"))
			row.Cells = append(row.Cells, shareCell{Count: n, Percent: c.Format(share)})
		}
		c.Series = append(c.Series, series)
		rows = append(rows, row)
	}
	return labels, rows, c.SVG()
}

// binLabel names bin j by its upper bound: "≤2.00ms", or "more" for the
// last, unbounded one.
func binLabel(ss []DrillStrategy, j int) string {
	for _, s := range ss {
		if j < len(s.Latency) {
			if up := s.Latency[j].Upper; up < math.MaxInt64 {
				return "≤" + htmlMS(up)
			}
			if j > 0 {
				return ">" + htmlMS(s.Latency[j-1].Upper)
			}
		}
	}
	return "more"
}

// lockChart draws the hold times of the strategies that took locks
// against their TTL and the TTLs advised, and lists those strategies in
// locking; "" when none did.
func lockChart(ss []DrillStrategy, classes []string, locking *[]DrillStrategy) template.HTML {
	c := svg.Bars{Title: "Lock hold times against the TTL (logarithmic)", Class: "locks", Log: true,
		Format: fromMS, Ticks: tickMS, Kinds: []string{"p50", "p99", "max"}}
	ttls := map[time.Duration]bool{}
	for i, s := range ss {
		l := s.Lock
		if l == nil || l.Holds == 0 {
			continue
		}
		*locking = append(*locking, s)
		c.Rows = append(c.Rows, svg.Row{Name: s.Name, Class: classes[i], Values: []float64{inMS(l.P50), inMS(l.P99), inMS(l.Max)}})
		if !ttls[l.TTL] {
			ttls[l.TTL] = true
			c.Markers = append(c.Markers, svg.Marker{At: inMS(l.TTL), Label: "TTL " + l.TTL.String()})
		}
		c.Bands = append(c.Bands, svg.Band{From: inMS(l.AdvisedMin), To: inMS(l.AdvisedMax), Label: "advised TTL"})
	}
	if len(c.Rows) == 0 {
		return ""
	}
	return c.SVG()
}
