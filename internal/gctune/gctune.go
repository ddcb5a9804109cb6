// Package gctune is how guard lint runs the garbage collector, shared by
// the command and by the benchmarks that measure it as the command runs.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Tuning is a setting of the garbage collector for a run. Parsing makes
// garbage at a high rate while little stays live (a file's syntax trees
// are dropped once its rules have run), so with the default GOGC=100 the
// collector runs every few megabytes and takes a tenth of the CPU, on the
// cores the parsers need. While the live heap is small the collector waits
// until the heap is Percent% larger than what survived, under a soft Limit;
// once a collection finds more than Fallback bytes live (a migration of a
// million INSERTs keeps a statement per row), the runtime's defaults come
// back, so memory stays within about twice the live heap, as without the
// tuning.
type Tuning struct {
	Percent  int    // GOGC while tuned
	Limit    int64  // the soft memory limit while tuned, bytes
	Fallback uint64 // the live heap, bytes, past which the defaults come back
}

// Lint is guard lint's tuning: at most 256 MiB while tuned, and the
// defaults once 48 MiB are live (where 400% would pass 256 MiB). The
// corpus of make bench stays under 48 MiB live; a 50 MB migration of
// INSERTs passes it, and then peaks at about twice its live heap instead of
// at the limit.
var Lint = Tuning{Percent: 400, Limit: 256 << 20, Fallback: 48 << 20}

// gcTuned counts the runs that have the tuning on, so that in-process runs
// that overlap (the tests) restore the settings once, with the last.
var gcTuned struct {
	sync.Mutex
	runs  int
	watch *gcWatch
}

// Apply turns the tuning on for one run, unless GOGC or GOMEMLIMIT is set:
// the user's settings stand. It returns the function that ends the run's
// tuning.
func (t Tuning) Apply() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gcTuned.Lock()
	defer gcTuned.Unlock()
	gcTuned.runs++
	if gcTuned.runs == 1 {
		w := &gcWatch{fallback: t.Fallback, live: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
		w.percent = debug.SetGCPercent(t.Percent)
		w.limit = debug.SetMemoryLimit(t.Limit)
		w.arm()
		gcTuned.watch = w
	}
	return func() {
		gcTuned.Lock()
		defer gcTuned.Unlock()
		gcTuned.runs--
		if gcTuned.runs == 0 {
			gcTuned.watch.reset()
			gcTuned.watch = nil
		}
	}
}

// gcWatch looks at the live heap after every collection and puts the
// runtime's settings back when it has grown past fallback.
type gcWatch struct {
	fallback uint64
	// percent and limit are the settings before the tuning.
	percent int
	limit   int64
	mu      sync.Mutex
	done    bool
	live    []metrics.Sample
}

// sentinel is garbage from the moment it is made: its finalizer runs after
// the next collection. It holds a pointer so that it is not batched with
// other tiny objects, whose finalizers may never run.
type sentinel struct{ w *gcWatch }

// arm makes the sentinel that calls check after the next collection.
func (w *gcWatch) arm() {
	runtime.SetFinalizer(&sentinel{w}, func(s *sentinel) { s.w.check() })
}

// check runs after a collection: back to the settings before the tuning
// when the live heap has passed fallback, else armed again.
func (w *gcWatch) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	metrics.Read(w.live)
	if v := w.live[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > w.fallback {
		w.restoreLocked()
		return
	}
	w.arm()
}

// reset ends the tuning: the settings before it come back.
func (w *gcWatch) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.restoreLocked()
}

func (w *gcWatch) restoreLocked() {
	if w.done {
		return
	}
	w.done = true
	debug.SetGCPercent(w.percent)
	debug.SetMemoryLimit(w.limit)
}
