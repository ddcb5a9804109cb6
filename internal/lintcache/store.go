package lintcache

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// DefaultLimit is how many bytes a cache keeps by default: past it, the
// entries used longest ago go first.
const DefaultLimit = 200 << 20

// sub is the one folder a cache owns below the folder it is given: Clean
// removes it and nothing else, so that --cache-dir naming a folder that
// holds anything else costs nothing of it.
const sub = "lint"

// Cache is the folder of guard lint's results. It is safe for concurrent
// use, by the goroutines of a run and by several guard processes sharing
// the folder: an entry is written to a file of its own and renamed into
// place, so that a reader sees a whole entry or none, and every entry is
// checked when read (see unframe). A cache that cannot be written warns
// once and goes on without writing; one that cannot be read misses.
type Cache struct {
	root    string
	limit   int64
	version string
	warn    func(string)

	mu      sync.Mutex
	warned  bool
	noWrite bool
	wrote   int64
	// later are the stores PutLater started, which Close waits for.
	later sync.WaitGroup
	// tag marks the folder a cache (tagDir) once a run has written to it.
	tag sync.Once
}

// Options are what Open needs besides the folder.
type Options struct {
	// Limit is the size in bytes past which the entries used longest ago
	// are removed; 0 means DefaultLimit.
	Limit int64
	// Version is guard's version as it reports it; the key of every entry
	// holds it with the build's own identity (Build).
	Version string
	// Warn is told, once, why the cache could not be written.
	Warn func(msg string)
}

// Open returns the cache in folder dir, made on the first write.
func Open(dir string, o Options) *Cache {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	return &Cache{root: filepath.Join(dir, sub), limit: o.Limit, version: o.Version, warn: o.Warn}
}

// DefaultDir returns the folder the cache lives in by default:
// $XDG_CACHE_HOME/guard, else $HOME/.cache/guard.
func DefaultDir() (string, error) {
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "guard"), nil
	}
	if h := os.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "guard"), nil
	}
	return "", errors.New("neither XDG_CACHE_HOME nor HOME is set")
}

// Build returns what names the guard that runs: its version and its
// build's identity (see buildIdentity). Entries of another build are
// never read, whatever its version says.
func (c *Cache) Build() string { return c.version + "\x00" + buildIdentity() }

func (c *Cache) path(kind Kind, k Key) string {
	h := k.String()
	return filepath.Join(c.root, h[:2], h+"-"+string(kind))
}

// touchAfter is how old an entry's time may grow before a read renews it:
// eviction goes by the time an entry was last used, and every run uses the
// entries of the files it did not change again, which must outlive the
// result of each edit.
const touchAfter = time.Second

// Get returns the payload stored under kind and k; false when there is
// none or what is there is not a whole, undamaged entry of that kind and
// key, which the next Put replaces.
func (c *Cache) Get(kind Kind, k Key) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	p := c.path(kind, k)
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<34 {
		return nil, false
	}
	b := make([]byte, info.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false
	}
	payload, ok := unframe(b, kind, k)
	if !ok {
		return nil, false
	}
	if now := time.Now(); now.Sub(info.ModTime()) > touchAfter {
		_ = os.Chtimes(p, now, now) // a read-only cache is still read
	}
	return payload, true
}

// Put stores under kind and k the payload write writes (WriteFile,
// WriteLinked, WriteResult), replacing what was there.
func (c *Cache) Put(kind Kind, k Key, write func(*Writer)) {
	e := c.Create(kind, k)
	if e == nil {
		return
	}
	write(e.Writer)
	e.Commit()
}

// Entry is an entry written as its content comes (Create): its Writer
// appends values, Write appends bytes as they are (which Reader.Rest reads
// back when they come last), Commit puts it in place whole and Abort
// drops it.
type Entry struct {
	*Writer
	c   *Cache
	f   *os.File
	p   string
	err error
}

// Create starts the entry of kind under k; nil when the cache is nil or
// cannot be written (it warns once).
func (c *Cache) Create(kind Kind, k Key) *Entry {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	skip := c.noWrite
	c.mu.Unlock()
	if skip {
		return nil
	}
	e := &Entry{c: c, p: c.path(kind, k)}
	if e.err = os.MkdirAll(filepath.Dir(e.p), 0o755); e.err == nil {
		e.f, e.err = os.CreateTemp(filepath.Dir(e.p), tmpPrefix+"*")
	}
	if e.err == nil {
		_, e.err = e.f.Write(header(kind, k))
	}
	if e.err != nil {
		if e.f != nil {
			e.f.Close()
			os.Remove(e.f.Name())
		}
		c.failed(e.err)
		return nil
	}
	e.Writer = NewWriter(e.f)
	return e
}

// Write appends b to the entry's payload as it is.
func (e *Entry) Write(b []byte) (int, error) {
	e.bytes(unsafe.String(unsafe.SliceData(b), len(b)))
	return len(b), e.Writer.err
}

// Commit ends the entry and renames it into place.
func (e *Entry) Commit() {
	n, crc, err := e.finish()
	if err == nil {
		_, err = e.f.Write(trailer(n, crc))
	}
	if cerr := e.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(e.f.Name(), e.p)
	}
	if err != nil {
		os.Remove(e.f.Name())
		e.c.failed(err)
		return
	}
	c := e.c
	c.tag.Do(func() { tagDir(c.root) })
	c.mu.Lock()
	c.wrote += int64(headerLen+trailerLen) + n
	c.mu.Unlock()
}

// Abort drops the entry.
func (e *Entry) Abort() {
	e.f.Close()
	os.Remove(e.f.Name())
}

// failed stops the cache's writes after err, and warns once.
func (c *Cache) failed(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.noWrite = true
	if !c.warned {
		c.warned = true
		c.warn(fmt.Sprintf("cache %s not written (%v): the results are the same, found without it", filepath.Dir(c.root), err))
	}
}

// PutLater is Put in the background, for a caller with other work to do:
// write runs on another goroutine, and must read only what nothing
// changes until Close returns.
func (c *Cache) PutLater(kind Kind, k Key, write func(*Writer)) {
	if c == nil {
		return
	}
	c.later.Go(func() { c.Put(kind, k, write) })
}

// writeAtomic writes a new file beside p with write and renames it to p: a
// reader of p sees the old file or the new one, whole.
func writeAtomic(p string, write func(io.Writer) (int64, error)) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(p), tmpPrefix+"*")
	if err != nil {
		return 0, err
	}
	n, werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return 0, werr
	}
	return n, nil
}

// tmpPrefix starts the names of the files being written.
const tmpPrefix = ".tmp-"

// cacheDirTag marks the folder as a cache to backup tools
// (https://bford.info/cachedir/).
const cacheDirTag = "Signature: 8a477f597d28d172789f06886806bc55\n# guard lint's cache: guard cache clean empties it.\n"

// tagName is the tag's file name.
const tagName = "CACHEDIR.TAG"

func tagDir(root string) {
	p := filepath.Join(root, tagName)
	if _, err := os.Stat(p); err == nil {
		return
	}
	_, _ = writeAtomic(p, func(f io.Writer) (int64, error) {
		n, err := io.WriteString(f, cacheDirTag)
		return int64(n), err
	})
}

// staleTmp is how old a file being written must be to be another run's
// leftover (one that was killed), which Close removes.
const staleTmp = time.Hour

// Close waits for the stores PutLater started, then keeps the cache
// within its limit once a run has written to it: the entries used longest
// ago are removed first. A cache closed can be used again and closed
// again: each Close counts only what was written since the last.
func (c *Cache) Close() {
	if c == nil {
		return
	}
	c.later.Wait()
	c.mu.Lock()
	wrote := c.wrote
	c.wrote = 0
	c.mu.Unlock()
	if wrote == 0 {
		return
	}
	// The folder's size is kept in a file, each run adding what it wrote,
	// so that a run reads one small file instead of listing every entry.
	// The count errs high (an entry written again counts twice, one
	// removed by hand still counts) and the folder is listed and trimmed
	// once it passes the limit, which sets it right; two runs adding at
	// once may lose one's bytes, which the next trim finds.
	p := filepath.Join(c.root, sizeName)
	size, err := readSize(p)
	if err != nil || size+wrote > c.limit {
		size = c.trim()
	} else {
		size += wrote
	}
	writeAtomic(p, func(f io.Writer) (int64, error) {
		n, err := fmt.Fprintf(f, "%d\n", size)
		return int64(n), err
	})
}

// sizeName is the file that counts the bytes of the entries.
const sizeName = "size"

func readSize(p string) (int64, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

type entryFile struct {
	path string
	size int64
	used time.Time
}

// trim removes entries, oldest first, until the cache holds at most its
// limit, and returns the size of those left. Another run trimming at the
// same time removes some of the same files: a file already gone is passed
// over.
func (c *Cache) trim() int64 {
	var all []entryFile
	var total int64
	now := time.Now()
	dirs, _ := os.ReadDir(c.root)
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join(c.root, d.Name())
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			info, err := f.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			p := filepath.Join(dir, f.Name())
			if strings.HasPrefix(f.Name(), tmpPrefix) {
				if now.Sub(info.ModTime()) > staleTmp {
					os.Remove(p)
				}
				continue
			}
			all = append(all, entryFile{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	if total <= c.limit {
		return total
	}
	slices.SortFunc(all, func(a, b entryFile) int {
		if c := a.used.Compare(b.used); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	for _, e := range all {
		if total <= c.limit {
			break
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
	return total
}

// Clean removes every entry of the cache in folder dir, and nothing else
// there; it returns how many files it removed and their size.
func Clean(dir string) (files int, size int64, err error) {
	root := filepath.Join(dir, sub)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return filepath.SkipAll
			}
			return err
		}
		if d.Type().IsRegular() && d.Name() != tagName && d.Name() != sizeName {
			if info, err := d.Info(); err == nil {
				files++
				size += info.Size()
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if err := os.RemoveAll(root); err != nil {
		return 0, 0, err
	}
	return files, size, nil
}
