package lintcache

import (
	"maps"
	"slices"

	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// FileEntry is what guard lint keeps of one query source: what its
// judgement gave, and what the phases after it read of the file, in
// guard's own types (never a syntax tree: a file that must be judged
// again is read and parsed again).
type FileEntry struct {
	// Path is the file as findings name it; Lang its language.
	Path string
	Lang stmt.Lang
	// Statements counts its statements.
	Statements   int
	Findings     []lint.Finding
	Observations []lint.Observation
	Suppressions []stmt.Suppression
	// Anchors maps a statement's first line to its host construct's.
	Anchors map[int]int
	// Hosts names the statements of dynamic variants by their element.
	Hosts []Host
	// Uses are its uses of the tables the migrations change; nil for none.
	Uses *lint.Usage
	// Tables are its CREATE TABLEs, for the inference of a run without a
	// schema: their text and place, parsed again when read.
	Tables []Table
	// Asked and AskedByCode are the columns its rules asked the policy
	// about (policy.Asked.Columns).
	Asked, AskedByCode [][2]string
}

// Host is one entry of FileEntry.Hosts: a statement's start, and its
// element's start and index.
type Host struct{ Line, Col, HostLine, HostCol, Index int }

// Table is one CREATE TABLE of a query source.
type Table struct {
	SQL       string
	File      string
	Line, Col int
}

// LinkedEntry is what guard lint keeps of the host code of a run (the Go,
// Java and mapper XML files, whose judgements read one another's facts):
// each file's final judgement, and the facts the run drew from all of
// them. It holds under the vocabulary the run inferred, which depends on
// every file: Vocabulary says which.
type LinkedEntry struct {
	Vocabulary []byte
	Files      []FileEntry
	// Observations are those of the calls joined to the mapper statements
	// they end in; Models the uses of the GORM models.
	Observations []lint.Observation
	Models       *lint.Usage
}

// EncodeFile returns e as a payload.
func EncodeFile(e *FileEntry) []byte { return encode(WriteFile(e)) }

// WriteFile returns what writes e, for Cache.Put.
func WriteFile(e *FileEntry) func(*Writer) { return func(w *Writer) { writeFile(w, e) } }

// DecodeFile reads a payload EncodeFile made; false when it cannot. The
// entry shares b's memory, which must not change afterwards.
func DecodeFile(b []byte) (*FileEntry, bool) {
	r := NewReader(b)
	e := readFile(r)
	return e, r.Done() == nil
}

// EncodeLinked returns e as a payload.
func EncodeLinked(e *LinkedEntry) []byte { return encode(WriteLinked(e)) }

// WriteLinked returns what writes e, for Cache.Put.
func WriteLinked(e *LinkedEntry) func(*Writer) {
	return func(w *Writer) {
		w.Text(string(e.Vocabulary))
		w.Len(len(e.Files), false)
		for i := range e.Files {
			writeFile(w, &e.Files[i])
		}
		writeObservations(w, e.Observations)
		writeUsage(w, e.Models)
	}
}

// DecodeLinked reads a payload EncodeLinked made; false when it cannot.
// The entry shares b's memory, which must not change afterwards.
func DecodeLinked(b []byte) (*LinkedEntry, bool) {
	r := NewReader(b)
	e := &LinkedEntry{}
	if v := r.Text(); v != "" {
		e.Vocabulary = []byte(v)
	}
	n := r.Len(fileBytes)
	for i := 0; i < n && r.err == nil; i++ {
		e.Files = append(e.Files, *readFile(r))
	}
	e.Observations = readObservations(r)
	e.Models = readUsage(r)
	return e, r.Done() == nil
}

func writeFile(w *Writer, e *FileEntry) {
	w.String(e.Path)
	w.String(string(e.Lang))
	w.Int(e.Statements)
	writeFindings(w, e.Findings)
	writeObservations(w, e.Observations)
	writeSuppressions(w, e.Suppressions)
	w.Len(len(e.Anchors), e.Anchors == nil)
	for _, line := range slices.Sorted(maps.Keys(e.Anchors)) {
		w.Int(line)
		w.Int(e.Anchors[line])
	}
	w.Len(len(e.Hosts), e.Hosts == nil)
	for _, h := range e.Hosts {
		w.Int(h.Line)
		w.Int(h.Col)
		w.Int(h.HostLine)
		w.Int(h.HostCol)
		w.Int(h.Index)
	}
	writeUsage(w, e.Uses)
	w.Len(len(e.Tables), e.Tables == nil)
	for _, t := range e.Tables {
		w.Text(t.SQL)
		w.String(t.File)
		w.Int(t.Line)
		w.Int(t.Col)
	}
	writePairs(w, e.Asked)
	writePairs(w, e.AskedByCode)
}

// fileBytes is the fewest bytes a FileEntry is written in.
const fileBytes = 12

func readFile(r *Reader) *FileEntry {
	e := &FileEntry{Path: r.String(), Lang: stmt.Lang(r.String()), Statements: r.Int()}
	e.Findings = readFindings(r)
	e.Observations = readObservations(r)
	e.Suppressions = readSuppressions(r)
	if n := r.Len(2); n >= 0 && r.err == nil {
		e.Anchors = make(map[int]int, n)
		for range n {
			k := r.Int()
			e.Anchors[k] = r.Int()
		}
	}
	if n := r.Len(5); n >= 0 && r.err == nil {
		e.Hosts = make([]Host, n)
		for i := range e.Hosts {
			e.Hosts[i] = Host{r.Int(), r.Int(), r.Int(), r.Int(), r.Int()}
		}
	}
	e.Uses = readUsage(r)
	if n := r.Len(4); n >= 0 && r.err == nil {
		e.Tables = make([]Table, n)
		for i := range e.Tables {
			e.Tables[i] = Table{SQL: r.Text(), File: r.String(), Line: r.Int(), Col: r.Int()}
		}
	}
	e.Asked = readPairs(r)
	e.AskedByCode = readPairs(r)
	return e
}

// EncodeResult returns a run's result as a payload.
func EncodeResult(res *lint.Result) []byte { return encode(WriteResult(res)) }

// WriteResult returns what writes a run's result, for Cache.Put. Its
// Baseline is not written: a result is kept before the baseline applies.
func WriteResult(res *lint.Result) func(*Writer) {
	return func(w *Writer) {
		writeFindings(w, res.Findings)
		s := res.Summary
		for _, n := range []int{s.Error, s.Warning, s.Info, s.Files, s.Statements, s.Tables} {
			w.Int(n)
		}
		w.Strings(res.OtherEngines)
		w.Strings(res.Templates)
		w.Strings(res.Flyway)
	}
}

// DecodeResult reads a payload EncodeResult made; false when it cannot.
// The result shares b's memory, which must not change afterwards.
func DecodeResult(b []byte) (*lint.Result, bool) {
	r := NewReader(b)
	res := &lint.Result{Findings: readFindings(r)}
	s := &res.Summary
	for _, p := range []*int{&s.Error, &s.Warning, &s.Info, &s.Files, &s.Statements, &s.Tables} {
		*p = r.Int()
	}
	res.OtherEngines, res.Templates, res.Flyway = r.Strings(), r.Strings(), r.Strings()
	return res, r.Done() == nil
}

// StartReport writes the head of a report entry to e: the worst severity
// and the notes. The report follows as it is printed, with e.Write, and
// Cache.ServeReport prints the entry again.
func StartReport(e *Entry, worst int, stderr string) {
	e.Int(worst)
	e.Text(stderr)
}
