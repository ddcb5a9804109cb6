package lintcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guard-sql/guard/lint"
)

// payloadOf is the payload of a result with n findings, each naming tag.
func resultOf(tag string, n int) *lint.Result {
	res := &lint.Result{Summary: lint.Summary{Files: n}}
	for i := range n {
		res.Findings = append(res.Findings, lint.Finding{Code: "GQ002", File: tag, Line: i + 1, Message: strings.Repeat(tag, 20), Fix: fmt.Sprintf("%s %d", tag, i)})
	}
	return res
}

func keyOf(s string) Key { return NewKey("test").String(s).Sum() }

// TestDamagedEntryMisses stores an entry, damages its file in each way a
// crash, a full disk, another guard or a person can, and checks each is a
// miss, never a wrong or partial entry, and that storing again mends it.
func TestDamagedEntryMisses(t *testing.T) {
	c := Open(t.TempDir(), Options{Version: "test"})
	k := keyOf("a")
	want := resultOf("a", 50)
	c.Put(KindRun, k, WriteResult(want))
	good, err := os.ReadFile(c.path(KindRun, k))
	if err != nil {
		t.Fatal(err)
	}
	other := keyOf("b")
	c.Put(KindRun, other, WriteResult(resultOf("b", 3)))
	foreign, _ := os.ReadFile(c.path(KindRun, other))
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		return b
	}
	damaged := map[string][]byte{
		"empty":            {},
		"truncated header": good[:10],
		"truncated":        good[:len(good)/2],
		"one byte short":   good[:len(good)-1],
		"one byte more":    append(bytes.Clone(good), 0),
		"magic":            flip(0),
		"kind":             flip(8),
		"key":              flip(20),
		"payload":          flip(headerLen + len(good)/3),
		"length":           flip(len(good) - trailerLen),
		"checksum":         flip(len(good) - 1),
		"another key's":    foreign,
		"junk":             bytes.Repeat([]byte("guardlc2"), 100),
	}
	for name, b := range damaged {
		if err := os.WriteFile(c.path(KindRun, k), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Get(KindRun, k); ok {
			t.Errorf("%s entry: read as good", name)
		}
		c.Put(KindRun, k, WriteResult(want))
		b, ok := c.Get(KindRun, k)
		if !ok {
			t.Errorf("%s entry: not mended by the next store", name)
			continue
		}
		if res, ok := DecodeResult(b); !ok || len(res.Findings) != 50 {
			t.Errorf("%s entry mended: read back %v findings, ok %v", name, len(res.Findings), ok)
		}
	}
	if _, ok := c.Get(KindFile, k); ok {
		t.Error("a run entry read as a file entry")
	}
}

// TestConcurrentStores has several writers store different payloads under
// one key while readers read it: every read is one whole payload.
func TestConcurrentStores(t *testing.T) {
	dir := t.TempDir()
	k := keyOf("shared")
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for w := range 4 {
		wg.Go(func() {
			c := Open(dir, Options{Version: "test"}) // a process of its own
			for i := range 20 {
				c.Put(KindRun, k, WriteResult(resultOf(fmt.Sprintf("w%d", w), 200+i)))
				if b, ok := c.Get(KindRun, k); ok {
					res, ok := DecodeResult(b)
					if !ok || len(res.Findings) != res.Summary.Files {
						errs <- fmt.Sprintf("writer %d read a partial entry", w)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	left, _ := filepath.Glob(filepath.Join(dir, sub, "*", tmpPrefix+"*"))
	if len(left) > 0 {
		t.Errorf("files being written left behind: %v", left)
	}
}

// TestTrimRemovesOldestFirst fills a cache past its limit and checks the
// entries used longest ago go first, and those read lately stay.
func TestTrimRemovesOldestFirst(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, Options{Version: "test", Limit: 1})
	keys := make([]Key, 6)
	var size int64
	for i := range keys {
		keys[i] = keyOf(fmt.Sprint(i))
		c.Put(KindRun, keys[i], WriteResult(resultOf(fmt.Sprint(i), 20)))
		info, err := os.Stat(c.path(KindRun, keys[i]))
		if err != nil {
			t.Fatal(err)
		}
		size = info.Size()
		// Entry i was last used i hours ago, but entry 5, read just now.
		at := time.Now().Add(-time.Duration(len(keys)-i) * time.Hour)
		os.Chtimes(c.path(KindRun, keys[i]), at, at)
	}
	if _, ok := c.Get(KindRun, keys[0]); !ok { // renews entry 0
		t.Fatal("entry 0 not read")
	}
	c.limit = 3*size + size/2
	c.Close()
	for i, k := range keys {
		_, err := os.Stat(c.path(KindRun, k))
		kept := err == nil
		if want := i == 0 || i >= 4; kept != want {
			t.Errorf("entry %d kept %v, want %v", i, kept, want)
		}
	}
	// An entry read minutes after it was written counts as used then: the
	// file entries every run reads outlive the results of each edit.
	fresh := Open(t.TempDir(), Options{Version: "test"})
	x, y := keyOf("x"), keyOf("y")
	for i, k := range []Key{x, y} {
		fresh.Put(KindRun, k, WriteResult(resultOf("z", 20)))
		at := time.Now().Add(-time.Duration(5-3*i) * time.Minute)
		os.Chtimes(fresh.path(KindRun, k), at, at)
	}
	fresh.Get(KindRun, x)
	fresh.limit = size + size/2
	fresh.Close()
	if _, err := os.Stat(fresh.path(KindRun, x)); err != nil {
		t.Error("the entry read just now was removed")
	}
	if _, err := os.Stat(fresh.path(KindRun, y)); err == nil {
		t.Error("the entry not read since it was written was kept")
	}
	// A file a killed run left half written goes once it is old, when a
	// run's writes take the cache past its limit.
	stale := filepath.Join(dir, sub, "00", tmpPrefix+"x")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("half"), 0o644)
	old := time.Now().Add(-2 * staleTmp)
	os.Chtimes(stale, old, old)
	c.limit = 3 * size
	c.Put(KindRun, keyOf("new"), WriteResult(resultOf("new", 1)))
	c.Close()
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale file being written was not removed")
	}
}

// TestUnwritableCacheWarnsOnce points the cache at a folder it cannot
// write: each store is skipped, one warning says so, reads miss.
func TestUnwritableCacheWarnsOnce(t *testing.T) {
	parent := t.TempDir()
	file := filepath.Join(parent, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	c := Open(file, Options{Version: "test", Warn: func(m string) { warnings = append(warnings, m) }})
	for i := range 3 {
		c.Put(KindFile, keyOf(fmt.Sprint(i)), WriteResult(resultOf("x", 1)))
	}
	c.Close()
	if len(warnings) != 1 || !strings.Contains(warnings[0], file) {
		t.Errorf("warnings %q, want one naming %s", warnings, file)
	}
	if _, ok := c.Get(KindFile, keyOf("0")); ok {
		t.Error("an entry read from an unwritable cache")
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Error("the file named as the cache folder was changed")
	}
}

// TestCleanRemovesOnlyEntries cleans a cache whose folder holds other files:
// they stay, every entry goes, and the count says how many.
func TestCleanRemovesOnlyEntries(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	os.WriteFile(mine, []byte("keep me"), 0o644)
	c := Open(dir, Options{Version: "test"})
	for i := range 3 {
		c.Put(KindFile, keyOf(fmt.Sprint(i)), WriteResult(resultOf("x", 1)))
	}
	if _, err := os.Stat(filepath.Join(dir, sub, tagName)); err != nil {
		t.Errorf("no %s: %v", tagName, err)
	}
	files, size, err := Clean(dir)
	if err != nil || files != 3 || size <= 0 {
		t.Errorf("Clean: %d files, %d bytes, %v; want 3 files", files, size, err)
	}
	if _, err := os.Stat(filepath.Join(dir, sub)); err == nil {
		t.Error("entries left")
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "keep me" {
		t.Errorf("a file of the folder went: %v", err)
	}
	if files, _, err := Clean(filepath.Join(dir, "never-made")); err != nil || files != 0 {
		t.Errorf("Clean of a cache never made: %d files, %v", files, err)
	}
}

// TestDefaultDir follows XDG_CACHE_HOME, else HOME.
func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	t.Setenv("HOME", "/home/u")
	if d, _ := DefaultDir(); d != filepath.FromSlash("/x/cache/guard") {
		t.Errorf("with XDG_CACHE_HOME: %s", d)
	}
	t.Setenv("XDG_CACHE_HOME", "relative") // the spec ignores a relative one
	if d, _ := DefaultDir(); d != filepath.FromSlash("/home/u/.cache/guard") {
		t.Errorf("with a relative XDG_CACHE_HOME: %s", d)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if _, err := DefaultDir(); err == nil {
		t.Error("no error without XDG_CACHE_HOME and HOME")
	}
}

// TestBuildIdentity reads the test binary's own Go build ID, so that two
// builds never share entries whatever their version says.
func TestBuildIdentity(t *testing.T) {
	id := buildIdentity()
	if !strings.HasPrefix(id, "go-build-id:") || len(id) < len("go-build-id:")+20 {
		t.Errorf("build identity %q, want the Go build ID", id)
	}
	a := Open(t.TempDir(), Options{Version: "dev"})
	if a.Build() == Open(t.TempDir(), Options{Version: "v1.0.0"}).Build() {
		t.Error("two versions share a build key")
	}
	if got := textBuildID([]byte("xx\xff Go build ID: \"abc/def\"\n \xff")); got != "abc/def" {
		t.Errorf("text build ID: %q", got)
	}
}

// TestReportEntryAsItIsPrinted writes a report entry as its report is
// printed, in many writes: it reads back whole, an aborted one leaves no
// file behind, and one that is being written is not read.
func TestReportEntryAsItIsPrinted(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, Options{Version: "test"})
	k := keyOf("report")
	e := c.Create(KindReport, k)
	StartReport(e, 3, "guard: note: one\n")
	var want strings.Builder
	for i := range 20000 {
		line := fmt.Sprintf("q.sql:%d:1: error GQ002 a decrement \"x\" — with ü\n", i)
		want.WriteString(line)
		e.Write([]byte(line))
	}
	if _, ok := c.Get(KindReport, k); ok {
		t.Fatal("an entry being written was read")
	}
	e.Commit()
	b, ok := c.Get(KindReport, k)
	if !ok {
		t.Fatal("the entry is not read back")
	}
	got, ok := DecodeReport(b)
	if !ok || got.Worst != 3 || got.Stderr != "guard: note: one\n" || got.Stdout != want.String() {
		t.Fatalf("read back %v: worst %d, stderr %q, %d bytes of stdout; want %d", ok, got.Worst, got.Stderr, len(got.Stdout), want.Len())
	}
	var out, errOut bytes.Buffer
	if worst, ok, err := c.ServeReport(k, &out, &errOut); !ok || err != nil || worst != 3 || out.String() != want.String() || errOut.String() != "guard: note: one\n" {
		t.Fatalf("served %v %v: worst %d, %d bytes, notes %q", ok, err, worst, out.Len(), errOut.String())
	}
	// One byte of the report changed: a miss, and nothing printed.
	p := c.path(KindReport, k)
	raw, _ := os.ReadFile(p)
	raw[len(raw)/2] ^= 1
	os.WriteFile(p, raw, 0o644)
	out.Reset()
	errOut.Reset()
	if _, ok, _ := c.ServeReport(k, &out, &errOut); ok || out.Len()+errOut.Len() > 0 {
		t.Errorf("a damaged report served %v, %d bytes written", ok, out.Len()+errOut.Len())
	}
	raw[len(raw)/2] ^= 1
	os.WriteFile(p, raw, 0o644)
	other := keyOf("aborted")
	a := c.Create(KindReport, other)
	StartReport(a, 2, "")
	a.Write([]byte("half a report"))
	a.Abort()
	c.Close()
	if _, ok := c.Get(KindReport, other); ok {
		t.Error("an aborted entry was read")
	}
	if n := entryFiles(t, dir); n != 1 {
		t.Errorf("%d files in the cache, want the committed entry alone", n)
	}
}

// entryFiles counts the files below dir but the cache's size and tag.
func entryFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != sizeName && d.Name() != tagName {
			n++
		}
		return nil
	})
	return n
}
