package drill

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzParseStrategies: any text either fails or gives strategies in the
// canonical order, without repeats, which parse back to themselves.
func FuzzParseStrategies(f *testing.F) {
	for _, s := range []string{"", "all", "naive", "lock-cas,conditional", " CAS , cas ", ",", "naive,,cas", "for-update\x00", "ALL,naive"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		got, err := ParseStrategies(list)
		if err != nil {
			if got != nil {
				t.Fatalf("ParseStrategies(%q) returned %v with error %v", list, got, err)
			}
			return
		}
		if len(got) == 0 {
			t.Fatalf("ParseStrategies(%q) = no strategy and no error", list)
		}
		all := Strategies()
		last := -1
		for _, s := range got {
			i := slices.Index(all, s)
			if i <= last {
				t.Fatalf("ParseStrategies(%q) = %v: not in canonical order without repeats", list, got)
			}
			last = i
		}
		var names []string
		for _, s := range got {
			names = append(names, string(s))
		}
		again, err := ParseStrategies(strings.Join(names, ","))
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("%v does not parse back: %v, %v", got, again, err)
		}
	})
}

// FuzzHistogram: for any latencies, the quantiles are ordered, never below
// the exact value, within a bucket above it, and capped at the maximum.
func FuzzHistogram(f *testing.F) {
	f.Add([]byte{})
	f.Add(binary.LittleEndian.AppendUint64(nil, uint64(time.Millisecond)))
	f.Add(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 1<<63-1), 1<<63))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var h histogram
		var all []time.Duration
		for len(raw) >= 8 {
			d := time.Duration(binary.LittleEndian.Uint64(raw))
			raw = raw[8:]
			h.record(d)
			all = append(all, max(d, 0))
		}
		if len(all) == 0 {
			if h.quantile(0.5) != 0 {
				t.Fatal("quantile of nothing is not 0")
			}
			return
		}
		slices.Sort(all)
		prev := time.Duration(0)
		for _, q := range []float64{0.001, 0.5, 0.9, 0.99, 1} {
			got := h.quantile(q)
			exact := all[max(int(q*float64(len(all))+0.5), 1)-1]
			if got < prev || got < exact || got > h.max || uint64(got-exact) > uint64(exact)/histSub+1 {
				t.Fatalf("quantile(%v) = %v: exact %v, previous %v, max %v", q, got, exact, prev, h.max)
			}
			prev = got
		}
	})
}
