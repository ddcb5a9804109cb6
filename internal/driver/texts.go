package driver

import (
	"os"
	"path/filepath"
	"sync"
)

// readFile reads a file from disk; every read of a run goes through it (a
// test counts them).
var readFile = os.ReadFile

// texts reads the files of one run from disk, each once. A phase that will
// not be the last to need a file's text reads it with keep, which holds the
// text for the phases after it; the last one takes it, which hands over
// the text and forgets it. A phase that is the only reader of its files
// (the extraction of a .sql or mapper XML source) takes them straight from
// disk, so a large script is never held longer than its extraction.
type texts struct {
	mu   sync.Mutex
	held map[string]*heldText
	// onRead, when set, is told of every text read from disk (the lint
	// cache hashes them); it is called from several goroutines at once.
	onRead func(p string, src []byte)
}

type heldText struct {
	once sync.Once
	src  []byte
	err  error
}

func newTexts() *texts { return &texts{held: map[string]*heldText{}} }

// keep returns the text of p, reading it on first use and holding it.
func (t *texts) keep(p string) ([]byte, error) {
	h := t.entry(filepath.Clean(p))
	h.once.Do(func() { h.src, h.err = t.read(p) })
	return h.src, h.err
}

// read reads p from disk.
func (t *texts) read(p string) ([]byte, error) {
	src, err := readFile(p)
	if err == nil && t.onRead != nil {
		t.onRead(p, src)
	}
	return src, err
}

// take returns the text of p and forgets it: held if a phase kept it,
// read now otherwise.
func (t *texts) take(p string) ([]byte, error) {
	key := filepath.Clean(p)
	t.mu.Lock()
	h, ok := t.held[key]
	delete(t.held, key)
	t.mu.Unlock()
	if !ok {
		return t.read(p)
	}
	h.once.Do(func() { h.src, h.err = t.read(p) })
	return h.src, h.err
}

// forget drops every text held: the phases that needed them are done.
func (t *texts) forget() {
	t.mu.Lock()
	clear(t.held)
	t.mu.Unlock()
}

func (t *texts) entry(key string) *heldText {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.held[key]
	if !ok {
		h = &heldText{}
		t.held[key] = h
	}
	return h
}
