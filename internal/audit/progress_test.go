package audit

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRenderNamedBar(t *testing.T) {
	if got, want := renderNamedBar("guard migrate up", 1, 3, time.Second), "guard migrate up [##########....................] 1/3 targets 1s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRenderBar(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 3, 0, "guard audit [..............................] 0/3 targets 0s"},
		{1, 3, 1400 * time.Millisecond, "guard audit [##########....................] 1/3 targets 1s"},
		{3, 3, 75 * time.Second, "guard audit [##############################] 3/3 targets 1m15s"},
		{5, 3, 0, "guard audit [##############################] 5/3 targets 0s"},
		{0, 0, 0, "guard audit [..............................] 0/0 targets 0s"},
	}
	for _, tt := range tests {
		if got := renderBar(tt.done, tt.total, tt.elapsed); got != tt.want {
			t.Errorf("renderBar(%d, %d, %s) = %q, want %q", tt.done, tt.total, tt.elapsed, got, tt.want)
		}
	}
}

// syncBuffer is a strings.Builder safe for the bar's ticker goroutine.
type syncBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}

func TestProgress(t *testing.T) {
	var buf syncBuffer
	p := NewProgress(&buf, 2)
	p.Done()
	p.Done()
	p.Stop()
	out := buf.String()
	if !strings.Contains(out, "\rguard audit [###############...............] 1/2 targets") ||
		!strings.Contains(out, "2/2 targets") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress output %q", out)
	}

	// One target: hidden until the audit takes long.
	var quiet syncBuffer
	p = NewProgress(&quiet, 1)
	p.Done()
	p.Stop()
	if quiet.String() != "" {
		t.Errorf("a quick single-target audit drew %q", quiet.String())
	}
}

func TestShowProgress(t *testing.T) {
	t.Setenv("CI", "")
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if ShowProgress(devnull) {
		t.Error("/dev/null is a character device, not a terminal")
	}
	if ShowProgress(&syncBuffer{}) {
		t.Error("a buffer is no terminal")
	}
	t.Setenv("CI", "true")
	if ShowProgress(os.Stderr) {
		t.Error("progress under CI")
	}
}
