package driver

// The lint cache's entries as the run reads them back and keeps them (see
// cache.go).

import (
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/lintcache"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// recallFile fills result i from the cache, when the host code's
// judgement or the file's first one is kept; false when source i is to be
// read and judged.
func (r *run) recallFile(i int, linkedAt []int) bool {
	m := r.mem
	if m == nil || !m.files {
		return false
	}
	if m.linked != nil && linkedAt[i] >= 0 {
		r.results[i] = fromEntry(&m.linked.Files[linkedAt[i]], recalledFinal)
		return true
	}
	if !isPlainCandidate(r.in.sources[i]) || !m.hashed[i] {
		return false
	}
	if m.carry != nil && m.carry.results[i].err == nil && m.carry.results[i].file != nil {
		r.results[i] = m.carry.results[i]
		return true
	}
	b, ok := m.c.Get(lintcache.KindFile, r.fileKey(i))
	if !ok {
		return false
	}
	e, ok := lintcache.DecodeFile(b)
	if !ok || e.Path != lint.DisplayPath(r.in.sources[i]) {
		return false
	}
	r.results[i] = fromEntry(e, recalledFirst)
	return true
}

// keepFirst stores the first judgement of source i, read and judged now
// from src, when it is a .sql source that holds nothing another file reads.
func (r *run) keepFirst(i int, src []byte) {
	m := r.mem
	if m == nil || !m.files || !isPlainCandidate(r.in.sources[i]) {
		return
	}
	fr := &r.results[i]
	if !plainResult(fr) {
		m.notPlain.Store(true)
		return
	}
	p := r.in.sources[i]
	h := m.hashes[i] // what src is, unless checkRead found otherwise
	if _, differs := m.differs.Load(filepath.Clean(p)); differs || !m.hashed[i] {
		h = lintcache.HashOf(src)
	}
	k := lintcache.NewKey("file").Key(m.ctx).String(p).String(lint.DisplayPath(p)).Hash(h).Sum()
	m.c.Put(lintcache.KindFile, k, lintcache.WriteFile(toEntry(fr)))
}

// plainResult reports whether a .sql source's extraction holds nothing
// that another file's judgement reads, nor anything the phases after
// extract do with host code: what its sqlfile extraction always is.
func plainResult(fr *fileResult) bool {
	f := fr.file
	if fr.err != nil || f == nil || fr.java != nil || f.Lang != stmt.LangSQL || len(f.MapperCalls) > 0 ||
		len(f.NegatedArgs) > 0 || len(f.GoctlFields) > 0 || f.NeedsPackage || f.UsesModels ||
		len(fr.dollars) > 0 || len(fr.mapperStmts) > 0 {
		return false
	}
	for _, fr := range f.Fragments {
		if len(fr.Dollar) > 0 || fr.ID != "" || fr.Namespace != "" || fr.Variant != "" || fr.Builder != "" ||
			len(fr.ParamSources) > 0 || len(fr.Negated) > 0 || fr.ParameterType != "" {
			return false
		}
	}
	return true
}

// materialize reads and extracts again the .sql source of result i,
// recalled from the cache, for a phase that parses it again; its content
// must be what was hashed.
func (r *run) materialize(i int) (*hostcode.File, error) {
	p := r.in.sources[i]
	src, err := readFile(p)
	if err != nil {
		return nil, &InputError{Msg: "read " + p + ": " + err.Error()}
	}
	if lintcache.HashOf(src) != r.mem.hashes[i] {
		return nil, &InputError{Msg: p + " changed while guard lint ran: run it again"}
	}
	return sqlfile.ExtractSQL(lint.DisplayPath(p), src), nil
}

// fromEntry makes the result of a kept judgement.
func fromEntry(e *lintcache.FileEntry, how recall) fileResult {
	fr := fileResult{
		file:         &hostcode.File{Path: e.Path, Lang: e.Lang, Suppressions: e.Suppressions},
		anchors:      anchors{lines: e.Anchors},
		statements:   e.Statements,
		observations: e.Observations,
		findings:     e.Findings,
		uses:         e.Uses,
		recalled:     how,
	}
	if how == recalledFirst {
		fr.asked = policy.AskedAbout(e.Asked, e.AskedByCode)
	}
	if e.Hosts != nil {
		fr.anchors.hosts = make(map[stmtPos]hostPos, len(e.Hosts))
		for _, h := range e.Hosts {
			fr.anchors.hosts[stmtPos{h.Line, h.Col}] = hostPos{h.HostLine, h.HostCol, h.Index}
		}
	}
	for _, t := range e.Tables {
		fr.tables = append(fr.tables, schema.DDL{SQL: t.SQL, File: t.File, Line: t.Line, Col: t.Col})
	}
	return fr
}

// toEntry makes the entry of a judgement.
func toEntry(fr *fileResult) *lintcache.FileEntry {
	e := &lintcache.FileEntry{
		Path: fr.file.Path, Lang: fr.file.Lang, Statements: fr.statements,
		Findings: fr.findings, Observations: fr.observations, Suppressions: fr.file.Suppressions,
		Anchors: fr.anchors.lines, Uses: fr.uses,
	}
	e.Asked, e.AskedByCode = fr.asked.Columns()
	if fr.anchors.hosts != nil {
		e.Hosts = make([]lintcache.Host, 0, len(fr.anchors.hosts))
		for s, h := range fr.anchors.hosts {
			e.Hosts = append(e.Hosts, lintcache.Host{Line: s.line, Col: s.col, HostLine: h.line, HostCol: h.col, Index: h.index})
		}
		slices.SortFunc(e.Hosts, func(a, b lintcache.Host) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
	}
	for _, t := range fr.tables {
		e.Tables = append(e.Tables, lintcache.Table{SQL: t.SQL, File: t.File, Line: t.Line, Col: t.Col})
	}
	return e
}

// inferred notes the vocabulary the run inferred; a run that recalled the
// host code's judgement made with another one, or that read a .sql source
// holding what host code reads, is made again (errRelink).
func (m *memory) inferred(pol *policy.Policy) error {
	if m == nil {
		return nil
	}
	m.vocabulary, _ = json.Marshal(pol.Inferred)
	if m.linked != nil && (string(m.linked.Vocabulary) != string(m.vocabulary) || m.notPlain.Load()) {
		return errRelink
	}
	return nil
}

// remember keeps the final judgement of the host code, once linked, when
// this run made it from files whose content the key names.
func (r *run) remember() error {
	m := r.mem
	if m == nil || !m.files || m.linked != nil || m.unstable.Load() || m.notPlain.Load() || !r.hasHostCode() {
		return nil
	}
	e := &lintcache.LinkedEntry{Vocabulary: m.vocabulary, Observations: m.mapped, Models: r.models}
	for i, p := range r.in.sources {
		if isPlainCandidate(p) {
			continue
		}
		fr := &r.results[i]
		if fr.err != nil || fr.file == nil {
			return nil
		}
		e.Files = append(e.Files, *toEntry(fr))
	}
	m.c.Put(lintcache.KindLinked, m.linkedKey, lintcache.WriteLinked(e))
	return nil
}

// result returns the run's result read back by recall, nil for none.
func (m *memory) result() *lint.Result {
	if m == nil {
		return nil
	}
	return m.recalled
}

// keepResult keeps the run's result, before the baseline and the changed
// lines apply, when every file it read is one the run's key names. It is
// written while the report is (Cache.PutLater), from a copy of the list of
// findings: the changed lines filter it in place, and no report may change
// what is being written. A run whose caller keeps its own output of the
// result (Config.Output) and whose files' entries are kept leaves the
// result out: the next run of that caller serves its output, another
// reads the files' entries back.
func (r *run) keepResult(res *lint.Result) {
	m := r.mem
	if m == nil || !m.keyed || m.unstable.Load() {
		return
	}
	if o := r.output(); o != nil {
		o.Keep(m.runKey)
		return
	}
	kept := *res
	kept.Findings = slices.Clone(res.Findings)
	m.c.PutLater(lintcache.KindRun, m.runKey, lintcache.WriteResult(&kept))
}

// output is the caller's Output when the result will be the one the run's
// key names (neither the baseline nor the changed lines filter it) and the
// tree keeps its files' entries: a small tree keeps its result alone, which
// is read back in less time than its output is written again.
func (r *run) output() Output {
	if r.mem == nil || !r.mem.files || r.cfg.Baseline != nil || r.cfg.Changes != nil {
		return nil
	}
	return r.cfg.Output
}
