package drill

import (
	"math/bits"
	"time"
)

// histogram counts latencies in buckets about 1.6% wide, so that a run of
// any length keeps a fixed, small memory and still tells p50 from p99. It is
// not safe for concurrent use: each worker keeps its own and the run merges
// them.
type histogram struct {
	counts [histBuckets]int64
	total  int64
	max    time.Duration
}

// Bucket layout: values below 2^histSubBits nanoseconds have a bucket each;
// above, every power of two is split into 2^histSubBits buckets.
const (
	histSubBits = 6
	histSub     = 1 << histSubBits
	histBuckets = (64 - histSubBits + 1) * histSub
)

// bucketOf returns the bucket of d; negative durations count as 0.
func bucketOf(d time.Duration) int {
	if d < histSub {
		return int(max(d, 0))
	}
	v := uint64(d)
	exp := bits.Len64(v) - histSubBits // >= 1
	return exp*histSub + int(v>>(exp-1)) - histSub
}

// bucketHigh returns the largest duration of bucket i: a percentile is
// reported at the top of its bucket, never below the true value.
func bucketHigh(i int) time.Duration {
	if i < histSub {
		return time.Duration(i)
	}
	exp, sub := i/histSub, i%histSub
	low := uint64(histSub+sub) << (exp - 1)
	high := low + 1<<(exp-1) - 1
	if high < low || high > uint64(1<<63-1) {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(high)
}

// record counts one latency.
func (h *histogram) record(d time.Duration) {
	h.counts[bucketOf(d)]++
	h.total++
	h.max = max(h.max, d)
}

// merge adds the counts of o.
func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
	h.max = max(h.max, o.max)
}

// quantile returns the latency at or below which the fraction q (0 < q <= 1)
// of the recorded latencies lies, capped at the largest one; 0 when nothing
// was recorded.
func (h *histogram) quantile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	rank := int64(q*float64(h.total) + 0.5)
	rank = min(max(rank, 1), h.total)
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(bucketHigh(i), h.max)
		}
	}
	return h.max
}

// LatencyBin counts the latencies at most Upper and above the Upper of the
// bin before it.
type LatencyBin struct {
	Upper time.Duration
	Count int64
}

// LatencyBounds are the upper bounds of the bins of Result.Latency: 1, 2
// and 5 times each power of ten from 10µs to 50s, then a last bin without
// bound (the largest duration). Every strategy has the same bins, so that
// their distributions compare.
var LatencyBounds = func() []time.Duration {
	var out []time.Duration
	for d := 10 * time.Microsecond; d <= 10*time.Second; d *= 10 {
		out = append(out, d, 2*d, 5*d)
	}
	return append(out, 1<<63-1)
}()

// bins folds the histogram's buckets into the bins of LatencyBounds; a
// bucket counts in the first bin whose bound its largest value is within,
// about 1.6% of a bucket being the most a latency moves.
func (h *histogram) bins() []LatencyBin {
	out := make([]LatencyBin, len(LatencyBounds))
	for i, b := range LatencyBounds {
		out[i].Upper = b
	}
	j := 0
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		for bucketHigh(i) > out[j].Upper {
			j++
		}
		out[j].Count += c
	}
	return out
}
