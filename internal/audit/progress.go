package audit

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress draws a one-line progress bar of a fleet audit (targets done out
// of total, elapsed time) on a terminal. It redraws in place with \r and
// erases itself when stopped, so that it never mixes with the report.
type Progress struct {
	w     io.Writer
	name  string // "guard audit"
	total int
	start time.Time
	// delay is how long the bar stays hidden: a short audit of one target
	// needs none.
	delay time.Duration

	mu    sync.Mutex
	done  int
	shown bool
	stop  chan struct{}
	wg    sync.WaitGroup
}

// barWidth is the number of cells of the bar.
const barWidth = 30

// NewProgress returns a bar for total targets on w. With more than one
// target it shows at once; with one, only when the audit takes long.
func NewProgress(w io.Writer, total int) *Progress {
	return NewNamedProgress(w, "guard audit", total)
}

// NewNamedProgress is NewProgress for another command: name leads the
// line ("guard migrate up").
func NewNamedProgress(w io.Writer, name string, total int) *Progress {
	p := &Progress{w: w, name: name, total: total, start: time.Now(), stop: make(chan struct{})}
	if total <= 1 {
		p.delay = 2 * time.Second
	}
	p.wg.Add(1)
	go p.tick()
	return p
}

// tick redraws the bar every quarter second, for the elapsed time.
func (p *Progress) tick() {
	defer p.wg.Done()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	p.draw()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.draw()
		}
	}
}

// Done counts one more target as audited.
func (p *Progress) Done() {
	p.mu.Lock()
	p.done++
	p.mu.Unlock()
	p.draw()
}

// Stop erases the bar; the report may follow.
func (p *Progress) Stop() {
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func (p *Progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.start)
	if elapsed < p.delay {
		return
	}
	p.shown = true
	fmt.Fprint(p.w, "\r"+renderNamedBar(p.name, p.done, p.total, elapsed)+"\x1b[K")
}

// renderBar prints "guard audit [#####.....] 3/10 targets 12s".
func renderBar(done, total int, elapsed time.Duration) string {
	return renderNamedBar("guard audit", done, total, elapsed)
}

func renderNamedBar(name string, done, total int, elapsed time.Duration) string {
	filled := 0
	if total > 0 {
		filled = min(done*barWidth/total, barWidth)
	}
	return fmt.Sprintf("%s [%s%s] %d/%d targets %s", name, strings.Repeat("#", filled),
		strings.Repeat(".", barWidth-filled), done, total, elapsed.Round(time.Second))
}

// ShowProgress reports whether a progress bar belongs on w: a terminal,
// outside CI.
func ShowProgress(w io.Writer) bool {
	if os.Getenv("CI") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}
