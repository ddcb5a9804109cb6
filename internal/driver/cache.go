package driver

// The lint cache (Config.Cache): what a run keeps for the next, and how
// the next reads it back. Three kinds of entry, each under a key that
// holds everything its content depends on:
//
//	run     the whole result, before the baseline and the changed lines
//	        apply: the run's context, every source and the folders of
//	        goctl models, by content
//	file    the first judgement of one .sql query source (extract): the
//	        context and the file's content. Its later judgement (rejudge,
//	        with the inferred vocabulary) is made again by every run, as
//	        for a file read now, and the file is read and parsed again
//	        only when that judges it again
//	linked  the final judgement of the host code (the Go, Java and mapper
//	        XML sources, which read one another's entities, mappers,
//	        wrappers, models and copies): the context and every host
//	        source and goctl model folder by content; it holds under the
//	        vocabulary it was judged with, which the .sql sources take part
//	        in, and a run that infers another judges the host code again
//
// The context is guard's build, the current directory, the rules, the
// policy as written and every file the schema phase read, by content. A
// .sql source gives the host code nothing but observations, which reach it
// through the vocabulary; one whose extraction holds anything another file
// could read (plainResult) is never kept, and makes the linked entry
// unusable. The keys name every file a run reads: one read that a key does
// not cover, or whose content is not what was hashed, and nothing of the
// run is kept but the entries of the files whose content it read itself.
// A tree whose sources are small (smallTree) keeps and reads back its run
// entry alone.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/guard-sql/guard/internal/lintcache"
	"github.com/guard-sql/guard/lint"
)

// errRelink stops a run that recalled the host code's judgement and then
// inferred a vocabulary other than the one it was judged with: the run is
// made again, judging the host code.
var errRelink = errors.New("host code judged with another vocabulary")

// recall says what a result of the run was read back from.
type recall uint8

const (
	// live: read and judged by this run.
	live recall = iota
	// recalledFirst: a .sql source's first judgement; the phases after
	// extract treat it as they treat a live one.
	recalledFirst
	// recalledFinal: a host file's final judgement; the phases after
	// extract pass it over.
	recalledFinal
)

// memory is a run's side of the cache.
type memory struct {
	c     *lintcache.Cache
	build string
	// linking is false in the run made again after errRelink, and carry
	// the run that stopped: its .sql sources' first judgements and its
	// hashes, made before any vocabulary, hold for this one when it reads
	// the same files.
	linking bool
	carry   *run

	// schema: the files the schema phase read.
	mu          sync.Mutex
	schemaReads map[string]lintcache.Hash

	// recall: the context; each source's hash, read before the
	// extraction; every file a key covers, by clean path.
	ctx    lintcache.Key
	hashes []lintcache.Hash
	hashed []bool
	known  map[string]lintcache.Hash
	// unstable is set once the run reads a file no key covers, or one
	// whose content is not what was hashed.
	unstable atomic.Bool
	// differs holds the files read whose content is not what was hashed.
	differs sync.Map
	// runKey and linkedKey are set when every source could be hashed.
	runKey, linkedKey lintcache.Key
	keyed             bool
	// small is set for a tree whose sources add up to less than
	// smallTree; files when the run keeps and reads back the entries of
	// single files and of the host code, which it does for any other.
	small, files bool
	// recalled is the run's result read back, linked the host code's
	// judgement.
	recalled *lint.Result
	linked   *lintcache.LinkedEntry
	// notPlain is set when a .sql source read now holds what another file
	// could read: the linked entry does not hold for such a run.
	notPlain atomic.Bool
	// vocabulary is the digest of the inferred vocabulary, and mapped the
	// observations of host calls joined to mapper statements (infer).
	vocabulary []byte
	mapped     []lint.Observation
}

func newMemory(c *lintcache.Cache, linking bool) *memory {
	return &memory{c: c, build: c.Build(), linking: linking, schemaReads: map[string]lintcache.Hash{}}
}

// noteSchemaRead records a file the schema phase read.
func (m *memory) noteSchemaRead(p string, src []byte) {
	h := lintcache.HashOf(src)
	m.mu.Lock()
	m.schemaReads[filepath.Clean(p)] = h
	m.mu.Unlock()
}

// checkRead is the texts' hook after the schema phase: a file read must be
// one a key covers, with the content hashed.
func (m *memory) checkRead(p string, src []byte) {
	p = filepath.Clean(p)
	if h, ok := m.known[p]; !ok || h != lintcache.HashOf(src) {
		m.unstable.Store(true)
		m.differs.Store(p, true)
	}
}

// contextKey is what every entry of the run depends on.
func (r *run) contextKey() lintcache.Key {
	m := r.mem
	k := lintcache.NewKey("context").String(m.build)
	wd, _ := os.Getwd()
	k.String(wd)
	for _, rule := range r.cfg.Rules {
		k.String(rule.Code).String(rule.Name)
	}
	k.Bool(r.cfg.Learn != nil).Bool(keepRowTrees).Int(scriptPart)
	pol, _ := json.Marshal(r.base)
	k.Bytes(pol).String(r.cfg.SchemaPath)
	paths := make([]string, 0, len(m.schemaReads))
	for p := range m.schemaReads {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		k.String(p).String(lint.DisplayPath(p)).Hash(m.schemaReads[p])
	}
	return k.Sum()
}

// recall makes the run's keys, hashing every source and the Go files of
// the folders of goctl models, and reads the run's result back when it is
// kept, and the host code's judgement.
func (r *run) recall() error {
	m := r.mem
	if m == nil {
		return nil
	}
	defer func() { r.tx.onRead = m.checkRead }()
	m.ctx = r.contextKey()
	srcs := r.in.sources
	if c := m.carry; c != nil && (c.mem.ctx != m.ctx || !slices.Equal(c.in.sources, srcs)) {
		m.carry = nil // the files changed between the two: nothing carries over
	}
	if c := m.carry; c != nil {
		m.hashes, m.hashed, m.small = c.mem.hashes, c.mem.hashed, c.mem.small
		// What the stopped run read holds for this one too.
		m.unstable.Store(c.mem.unstable.Load())
		m.notPlain.Store(c.mem.notPlain.Load())
	} else {
		m.hashes, m.hashed = make([]lintcache.Hash, len(srcs)), make([]bool, len(srcs))
		var total atomic.Int64
		forEach(len(srcs), hashBuffer, func(buf []byte, i int) {
			if h, n, err := lintcache.HashFile(srcs[i], buf); err == nil {
				m.hashes[i], m.hashed[i] = h, true
				total.Add(n)
			}
		})
		m.small = total.Load() < smallTree
	}
	m.known = map[string]lintcache.Hash{}
	keyed := true
	for i, p := range srcs {
		keyed = keyed && m.hashed[i]
		if m.hashed[i] {
			m.known[filepath.Clean(p)] = m.hashes[i]
		}
	}
	pkgs, ok := r.packageFiles()
	if !keyed || !ok {
		return nil
	}
	run := lintcache.NewKey("run").Key(m.ctx).Key(pkgs)
	linked := lintcache.NewKey("linked").Key(m.ctx).Key(pkgs)
	for _, p := range r.cfg.Paths {
		run.String(p)
	}
	for _, p := range r.paths {
		info, err := os.Stat(p)
		run.String(p).Bool(err == nil).Bool(err == nil && info.IsDir())
	}
	wd := lint.CurrentDir()
	for i, p := range srcs {
		shown := wd.Path(p)
		run.String(p).String(shown).Hash(m.hashes[i])
		if !isPlainCandidate(p) {
			linked.String(p).String(shown).Hash(m.hashes[i])
		}
	}
	for _, list := range [][]string{r.in.otherEngines, r.in.templates, r.in.flyway} {
		run.Int(len(list))
		for _, p := range list {
			run.String(wd.Path(p))
		}
	}
	sharding, _ := json.Marshal(r.cfg.Sharding)
	run.Bytes(sharding)
	for _, mig := range r.migs {
		before, _ := json.Marshal(mig.Before)
		run.String(mig.File).Bytes(before)
	}
	m.runKey, m.linkedKey, m.keyed = run.Sum(), linked.Sum(), true
	m.files = !m.small
	if o := r.output(); o != nil && o.Serve(m.runKey) {
		return ErrServed
	}
	if b, ok := m.c.Get(lintcache.KindRun, m.runKey); ok {
		if res, ok := lintcache.DecodeResult(b); ok {
			m.recalled = res
			return nil
		}
	}
	if !m.linking || !m.files || !r.hasHostCode() {
		return nil
	}
	if b, ok := m.c.Get(lintcache.KindLinked, m.linkedKey); ok {
		if e, ok := lintcache.DecodeLinked(b); ok && r.fitsLinked(e) {
			m.linked = e
		}
	}
	return nil
}

// smallTree is the size of the sources below which a run keeps its whole
// result only: a tree that small is judged again in less time than the
// entries of its files take to read back and to keep, and than judging
// its host code twice when an edit moves the vocabulary.
var smallTree int64 = 512 << 10

// hashBuffer is the buffer a worker hashes files through.
func hashBuffer() []byte { return make([]byte, 64<<10) }

// packageFiles returns the key of the Go files of the folders of goctl
// models (goPackageDirs), which the extraction of a Go file of the folder
// may read whether or not they are sources (goPackageFiles): the folder's
// entries and each such file's content. False when one cannot be read.
func (r *run) packageFiles() (lintcache.Key, bool) {
	m := r.mem
	k := lintcache.NewKey("packages")
	dirs := goPackageDirs(r.in.sources)
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	slices.Sort(names)
	for _, dir := range names {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return k.Sum(), false
		}
		k.String(dir).Int(len(entries))
		for _, e := range entries {
			name := e.Name()
			k.String(name).Bool(e.IsDir())
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			p := filepath.Clean(filepath.Join(dir, name))
			h, ok := m.known[p]
			if !ok {
				var err error
				if h, _, err = lintcache.HashFile(p, hashBuffer()); err != nil {
					return k.Sum(), false
				}
				m.known[p] = h
			}
			k.Hash(h)
		}
	}
	return k.Sum(), true
}

// fitsLinked reports whether e holds one file for each host source, in order.
func (r *run) fitsLinked(e *lintcache.LinkedEntry) bool {
	n := 0
	for _, p := range r.in.sources {
		if isPlainCandidate(p) {
			continue
		}
		if n >= len(e.Files) || e.Files[n].Path != lint.DisplayPath(p) {
			return false
		}
		n++
	}
	return n == len(e.Files)
}

// hasHostCode reports whether a source of the run is host code: without
// one there is no linked judgement to keep or to read back, and a .sql
// edit that moves the vocabulary costs no second pass (errRelink).
func (r *run) hasHostCode() bool {
	for _, p := range r.in.sources {
		if !isPlainCandidate(p) {
			return true
		}
	}
	return false
}

// isPlainCandidate reports whether source p is a .sql query source, whose
// first judgement is kept on its own.
func isPlainCandidate(p string) bool { return strings.EqualFold(filepath.Ext(p), ".sql") }

// fileKey is the key of source i's first judgement.
func (r *run) fileKey(i int) lintcache.Key {
	p := r.in.sources[i]
	return lintcache.NewKey("file").Key(r.mem.ctx).String(p).String(lint.DisplayPath(p)).Hash(r.mem.hashes[i]).Sum()
}

// linkedIndex maps each source to its file in the linked entry, -1 for
// none.
func (r *run) linkedIndex() []int {
	at := make([]int, len(r.in.sources))
	n := 0
	for i, p := range r.in.sources {
		at[i] = -1
		if r.mem != nil && r.mem.linked != nil && !isPlainCandidate(p) {
			at[i] = n
			n++
		}
	}
	return at
}
