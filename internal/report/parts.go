package report

import (
	"bytes"
	"io"
	"runtime"
	"sync/atomic"
)

// streamParts writes n items to w in parts of size items: print fills a
// buffer with items [from, to) on every core at once, and the parts are
// written out in order as they are done. The buffers of the parts written
// are used again, so a report takes a few buffers' worth of memory whatever
// its size, and the writing overlaps the printing.
func streamParts(w io.Writer, n, size int, print func(b *bytes.Buffer, from, to int)) error {
	parts := (n + size - 1) / size
	workers := min(runtime.GOMAXPROCS(0), parts)
	done := make([]chan *bytes.Buffer, parts) // part k's text, once printed
	for k := range done {
		done[k] = make(chan *bytes.Buffer, 1)
	}
	// Two buffers a worker: one being printed, one waiting to be written.
	free := make(chan *bytes.Buffer, 2*workers)
	for range 2 * workers {
		free <- new(bytes.Buffer)
	}
	var next atomic.Int64
	for range workers {
		go func() {
			for {
				// The buffer first, then the part: a worker that waited for
				// a buffer while holding a later part could leave the one
				// the writer waits for unprinted, every buffer stuck in a
				// part written after it.
				b := <-free
				k := int(next.Add(1) - 1)
				if k >= parts {
					free <- b
					return
				}
				print(b, k*size, min((k+1)*size, n))
				done[k] <- b
			}
		}()
	}
	var err error
	for k := range done {
		b := <-done[k]
		if err == nil {
			_, err = w.Write(b.Bytes())
		}
		// After a failed write the parts are still taken, so that no worker
		// waits for a buffer for ever.
		b.Reset()
		free <- b
	}
	return err
}
