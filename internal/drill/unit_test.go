package drill

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
)

func TestHistogramQuantiles(t *testing.T) {
	tests := []struct {
		name          string
		values        []time.Duration
		p50, p99, max time.Duration
	}{
		{"empty", nil, 0, 0, 0},
		{"one", []time.Duration{3 * time.Millisecond}, 3 * time.Millisecond, 3 * time.Millisecond, 3 * time.Millisecond},
		{"small exact", []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5, 10, 10},
		{"negative counts as zero", []time.Duration{-5, 0, 0}, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h histogram
			for _, v := range tt.values {
				h.record(v)
			}
			got := []time.Duration{h.quantile(0.5), h.quantile(0.99), h.max}
			if d := cmp.Diff([]time.Duration{tt.p50, tt.p99, tt.max}, got); d != "" {
				t.Errorf("p50, p99, max (-want +got):\n%s", d)
			}
		})
	}
}

// TestHistogramPrecision compares the quantiles with those of the sorted
// values: never below, at most one bucket (1/64) above.
func TestHistogramPrecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var a, b histogram
	var all []time.Duration
	for i := range 20000 {
		d := time.Duration(rng.ExpFloat64() * float64(5*time.Millisecond))
		all = append(all, d)
		if i%2 == 0 {
			a.record(d)
		} else {
			b.record(d)
		}
	}
	a.merge(&b)
	slices.Sort(all)
	if a.total != int64(len(all)) || a.max != all[len(all)-1] {
		t.Fatalf("merged total %d max %v, want %d and %v", a.total, a.max, len(all), all[len(all)-1])
	}
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999, 1} {
		exact := all[max(int(q*float64(len(all))+0.5), 1)-1]
		got := a.quantile(q)
		if got < exact || float64(got-exact) > float64(exact)/histSub+1 {
			t.Errorf("quantile(%v) = %v, exact %v: off by more than a bucket", q, got, exact)
		}
	}
}

// TestHistogramBins folds latencies into the report's bins: each counted
// once, in the bin of its bound (a value a bucket's width above a bound
// may count in the bin above), the bins the same for any histogram.
func TestHistogramBins(t *testing.T) {
	var h histogram
	for _, d := range []time.Duration{0, 5 * time.Microsecond, 150 * time.Microsecond, 195 * time.Microsecond,
		3 * time.Millisecond, 3 * time.Millisecond, 2 * time.Minute} {
		h.record(d)
	}
	bins := h.bins()
	if len(bins) != len(LatencyBounds) {
		t.Fatalf("%d bins, want %d", len(bins), len(LatencyBounds))
	}
	got := map[time.Duration]int64{}
	var total int64
	for i, b := range bins {
		if b.Upper != LatencyBounds[i] {
			t.Errorf("bin %d bound %v, want %v", i, b.Upper, LatencyBounds[i])
		}
		if b.Count > 0 {
			got[b.Upper] = b.Count
		}
		total += b.Count
	}
	want := map[time.Duration]int64{10 * time.Microsecond: 2, 200 * time.Microsecond: 2, 5 * time.Millisecond: 2, 1<<63 - 1: 1}
	if d := cmp.Diff(want, got); d != "" || total != h.total {
		t.Errorf("bins (-want +got):\n%s (total %d of %d)", d, total, h.total)
	}
	if empty := (&histogram{}).bins(); len(empty) != len(LatencyBounds) || empty[0].Count != 0 {
		t.Errorf("an empty histogram's bins: %v", empty)
	}
}

func TestBuckets(t *testing.T) {
	for _, d := range []time.Duration{0, 1, 63, 64, 65, 127, 128, 129, 1000, time.Millisecond, time.Hour, 1<<63 - 1} {
		i := bucketOf(d)
		if i < 0 || i >= histBuckets {
			t.Fatalf("bucketOf(%d) = %d, out of range", d, i)
		}
		if high := bucketHigh(i); high < d || (i > 0 && bucketHigh(i-1) >= d) {
			t.Errorf("%d is in bucket %d whose top is %d (previous %d)", d, i, high, bucketHigh(i-1))
		}
	}
}

func TestParseStrategies(t *testing.T) {
	tests := []struct {
		in      string
		want    []Strategy
		wantErr string
	}{
		{"", Strategies(), ""},
		{"all", Strategies(), ""},
		{" ALL ", Strategies(), ""},
		{"lock-cas,conditional", []Strategy{Conditional, LockCAS}, ""},
		{"cas, CAS ,naive", []Strategy{Naive, CAS}, ""},
		{"conditional,lock", nil, `unknown strategy "lock"`},
		{",", nil, `unknown strategy ""`},
	}
	for _, tt := range tests {
		got, err := ParseStrategies(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseStrategies(%q) = %v, %v; want error %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseStrategies(%q): %v", tt.in, err)
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ParseStrategies(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestCheckOptions(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	ok := func() Options {
		return Options{Table: "t", Rows: 1, Stock: 1, Workers: 1, Redis: rdb}
	}
	tests := []struct {
		name string
		edit func(o *Options)
		want string
	}{
		{"no rows", func(o *Options) { o.Rows = 0 }, "rows 0"},
		{"no stock", func(o *Options) { o.Stock = 0 }, "stock 0"},
		{"no workers", func(o *Options) { o.Workers = -1 }, "workers -1"},
		{"negative duration", func(o *Options) { o.Duration = -time.Second }, "duration -1s"},
		{"too many rows", func(o *Options) { o.Rows = maxRows + 1 }, "at most"},
		{"lock-cas without redis", func(o *Options) { o.Redis = nil }, "lock-cas needs a Redis"},
		{"fault without lock-cas", func(o *Options) { o.Fault = FaultFlush; o.Strategies = []Strategy{Naive} }, "not among the strategies"},
		{"restart without hook", func(o *Options) { o.Fault = FaultRestart }, "needs a Redis the drill can restart"},
		{"unknown fault", func(o *Options) { o.Fault = "boom" }, `fault "boom"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ok()
			if err := o.Check(); err != nil {
				t.Fatalf("Check of valid options: %v", err)
			}
			o = ok()
			tt.edit(&o)
			if err := o.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check: %v, want %q", err, tt.want)
			}
		})
	}
}

func TestSeedValue(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		col  seedColumn
		id   int64
		want any
	}{
		{seedColumn{dataType: "int"}, 7, int64(7)},
		{seedColumn{dataType: "decimal"}, 7, int64(7)},
		{seedColumn{dataType: "varchar", maxChars: 32}, 7, "drill-7"},
		{seedColumn{dataType: "char", maxChars: 3}, 1295, "zz"},
		{seedColumn{dataType: "longtext"}, 7, `"drill-7"`},
		{seedColumn{dataType: "date"}, 2, "2025-06-03"},
		{seedColumn{dataType: "datetime"}, 61, "2025-06-01 12:01:01"},
		{seedColumn{dataType: "time"}, 3661, "1:01:01"},
		{seedColumn{dataType: "year"}, 1, int64(1901)},
		{seedColumn{dataType: "json"}, 7, `{"drill": 7}`},
		{seedColumn{dataType: "enum"}, 7, 1},
		{seedColumn{dataType: "enum", unique: true}, 7, int64(7)},
		{seedColumn{dataType: "bit"}, 7, 0},
		{seedColumn{dataType: "uuid"}, 255, "00000000-0000-4000-8000-0000000000ff"},
		{seedColumn{dataType: "inet4"}, 258, "10.0.1.2"},
	}
	for _, tt := range tests {
		got, err := seedValue(tt.col, tt.id, now)
		if err != nil || got != tt.want {
			t.Errorf("seedValue(%s, %d) = %#v, %v; want %#v", tt.col.dataType, tt.id, got, err, tt.want)
		}
	}
	if _, err := seedValue(seedColumn{name: "spot", dataType: "point"}, 1, now); err == nil || !strings.Contains(err.Error(), "spot is point") {
		t.Errorf("seedValue of a point: %v, want a refusal naming the column", err)
	}
}

func TestGeneratedColumn(t *testing.T) {
	for extra, want := range map[string]bool{
		"": false, "auto_increment": false, "DEFAULT_GENERATED": false, "DEFAULT_GENERATED on update CURRENT_TIMESTAMP": false,
		"VIRTUAL GENERATED": true, "STORED GENERATED": true, "PERSISTENT GENERATED": true, "virtual generated": true,
	} {
		if got := generatedColumn(extra); got != want {
			t.Errorf("generatedColumn(%q) = %v, want %v", extra, got, want)
		}
	}
}

// sampleReport is a drill with one strategy that failed.
func sampleReport() *Report {
	return &Report{
		Table: "t_stock", Database: "shop", Server: "MariaDB 10.11.6", Scratch: "guard_drill_0011223344556677",
		View: "guard_drill_0011223344556677_v", PrimaryKey: "id", Counter: "qty", Version: "version", VersionAdded: true,
		Rows: 1, Stock: 100, Workers: 300, Notes: []string{"t_stock has no version column version"},
		Results: []*Result{
			{Strategy: Naive, Successes: 250, Oversold: 150, FinalStock: 3, ExpectedStock: -150, Ops: 250,
				Elapsed: time.Second, OpsPerSec: 250, P50: 1500 * time.Microsecond, P99: 25 * time.Millisecond, Max: 120 * time.Millisecond},
			{Strategy: CAS, Successes: 100, ExpectedStock: 0, Consistent: true, Ops: 140, Refused: 12, CASConflicts: 40,
				Elapsed: 2 * time.Second, OpsPerSec: 50, P50: 10 * time.Millisecond, P99: 90 * time.Millisecond, Max: 95 * time.Millisecond},
			{Strategy: LockCAS, Successes: 101, Oversold: 1, FinalStock: 0, ExpectedStock: -1, Consistent: false, Ops: 101,
				Elapsed: time.Second, OpsPerSec: 101, P50: 2 * time.Millisecond, P99: 3 * time.Millisecond, Max: 4 * time.Millisecond,
				LockTaken: 1, LockError: 2, LockLost: 3},
		},
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	want := `guard drill shop.t_stock on MariaDB 10.11.6: hot row, 1 row of 100, 300 workers, until sold out
scratch copy guard_drill_0011223344556677 (dropped): id as id, qty as stock, version as version (added to the copy)

strategy  sold  oversold  final  consistent  ops/s     p50     p99     max  conflicts  lock taken/error/lost
naive      250       150      3          NO    250  1.50ms  25.0ms   120ms          -                      -
cas        100         0      0         yes     50  10.0ms  90.0ms  95.0ms         40                      -
lock-cas   101         1      0          NO    101  2.00ms  3.00ms  4.00ms          0                  1/2/3

note: t_stock has no version column version
note: naive stopped each row at 2 times its stock sold: the oversell is proven
note: lock-cas did NOT hold: the table's guards let it oversell or lose updates
`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("text report (-want +got):\n%s", d)
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleReport(), "1.2.3"); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tool       string     `json:"tool"`
		Version    string     `json:"version"`
		Mode       string     `json:"mode"`
		Failed     []Strategy `json:"failed"`
		Strategies []struct {
			Strategy   Strategy `json:"strategy"`
			Oversold   int64    `json:"oversold"`
			Consistent bool     `json:"consistent"`
			P99        float64  `json:"p99_ms"`
			LockLost   int64    `json:"lock_lost"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if got.Tool != "guard" || got.Version != "1.2.3" || got.Mode != "hot row" || !slices.Equal(got.Failed, []Strategy{LockCAS}) {
		t.Errorf("header: %+v", got)
	}
	if len(got.Strategies) != 3 || got.Strategies[0].Oversold != 150 || got.Strategies[1].P99 != 90 || got.Strategies[2].LockLost != 3 || !got.Strategies[1].Consistent {
		t.Errorf("strategies: %+v", got.Strategies)
	}
}

func TestRenderProgress(t *testing.T) {
	tests := []struct {
		done, total       int64
		elapsed, duration time.Duration
		want              string
	}{
		{0, 100, 0, 0, "guard drill conditional [..............................] 0/100 sold 0s"},
		{50, 100, 1500 * time.Millisecond, 0, "guard drill conditional [###############...............] 50/100 sold 1.5s"},
		{10, 100, 5 * time.Second, 10 * time.Second, "guard drill conditional [###############...............] 10/100 sold 5s"},
		{300, 100, time.Second, 0, "guard drill conditional [##############################] 300/100 sold 1s"},
	}
	for _, tt := range tests {
		if got := renderProgress("conditional", tt.done, tt.total, tt.elapsed, tt.duration); got != tt.want {
			t.Errorf("renderProgress(%d/%d, %v of %v) =\n%q, want\n%q", tt.done, tt.total, tt.elapsed, tt.duration, got, tt.want)
		}
	}
}

func TestFullJitter(t *testing.T) {
	for attempt, ceiling := range map[int]time.Duration{1: 20 * time.Millisecond, 2: 40 * time.Millisecond, 3: 80 * time.Millisecond, 4: 100 * time.Millisecond, 40: 100 * time.Millisecond} {
		for range 200 {
			if d := fullJitter(attempt, 20*time.Millisecond, 100*time.Millisecond); d < 0 || d > ceiling {
				t.Fatalf("fullJitter(%d) = %v, want within [0, %v]", attempt, d, ceiling)
			}
		}
	}
	if d := fullJitter(1, 0, 0); d != 0 {
		t.Errorf("fullJitter with no backoff = %v", d)
	}
}
