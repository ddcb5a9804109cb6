package gctune

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// gcSettings reads the collector's GOGC and memory limit.
func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// TestGCTuningFallsBack checks that the tuning is on for a run, that the
// settings before it come back once the live heap passes the fallback, and
// that overlapping runs end it once.
func TestGCTuningFallsBack(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcSettings()
	tuning := Tuning{Percent: int(percent)*4 + 1, Limit: 1 << 40, Fallback: 16 << 20}

	end, endOther := tuning.Apply(), tuning.Apply()
	if p, l := gcSettings(); p != uint64(tuning.Percent) || l != uint64(tuning.Limit) {
		t.Fatalf("tuned: GOGC %d, limit %d; want %d, %d", p, l, tuning.Percent, tuning.Limit)
	}
	endOther()
	if p, _ := gcSettings(); p != uint64(tuning.Percent) {
		t.Fatalf("GOGC %d after one of two runs ended, want %d", p, tuning.Percent)
	}
	live := make([]byte, 32<<20)
	for i := range live {
		live[i] = byte(i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if p, l := gcSettings(); p == percent && l == limit {
			break
		}
		if time.Now().After(deadline) {
			p, l := gcSettings()
			t.Fatalf("with %d MiB live: GOGC %d, limit %d; want the settings before, %d, %d", len(live)>>20, p, l, percent, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
	end()
	if p, l := gcSettings(); p != percent || l != limit {
		t.Errorf("after the run: GOGC %d, limit %d; want %d, %d", p, l, percent, limit)
	}
}

// TestGCTuningLeavesUserSettings checks that GOGC or GOMEMLIMIT in the
// environment turns the tuning off.
func TestGCTuningLeavesUserSettings(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}[env])
			percent, limit := gcSettings()
			end := Lint.Apply()
			defer end()
			if p, l := gcSettings(); p != percent || l != limit {
				t.Errorf("%s set: GOGC %d, limit %d; want them untouched, %d, %d", env, p, l, percent, limit)
			}
		})
	}
}
