package drill

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws one strategy's progress on a terminal: units sold out of
// the stock (or time out of the duration) and the elapsed time. It redraws
// in place with \r and erases itself when stopped, so that it never mixes
// with the report.
type progress struct {
	w        io.Writer
	label    string
	total    int64
	duration time.Duration
	done     *atomic.Int64
	start    time.Time
	quit     chan struct{}
	wg       sync.WaitGroup
}

// progressWidth is the number of cells of the bar.
const progressWidth = 30

func newProgress(w io.Writer, label string, total int64, duration time.Duration, done *atomic.Int64) *progress {
	p := &progress{w: w, label: label, total: total, duration: duration, done: done, start: time.Now(), quit: make(chan struct{})}
	p.wg.Add(1)
	go p.tick()
	return p
}

func (p *progress) tick() {
	defer p.wg.Done()
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		fmt.Fprint(p.w, "\r"+renderProgress(p.label, p.done.Load(), p.total, time.Since(p.start), p.duration)+"\x1b[K")
		select {
		case <-p.quit:
			return
		case <-t.C:
		}
	}
}

// stop erases the bar.
func (p *progress) stop() {
	close(p.quit)
	p.wg.Wait()
	fmt.Fprint(p.w, "\r\x1b[K")
}

// renderProgress prints "guard drill lock-cas [####......] 57/100 sold 3s":
// the bar follows the stock, or the clock when a duration bounds the run and
// is further along.
func renderProgress(label string, done, total int64, elapsed, duration time.Duration) string {
	frac := 0.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	if duration > 0 {
		frac = max(frac, float64(elapsed)/float64(duration))
	}
	filled := min(max(int(frac*progressWidth), 0), progressWidth)
	return fmt.Sprintf("guard drill %-11s [%s%s] %d/%d sold %s", label, strings.Repeat("#", filled),
		strings.Repeat(".", progressWidth-filled), done, total, elapsed.Round(100*time.Millisecond))
}
