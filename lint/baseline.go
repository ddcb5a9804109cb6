package lint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// BaselineFormat is the version of the baseline file format.
const BaselineFormat = 1

// Baseline is a set of findings a project knows about and has not fixed
// yet: guard lint --write-baseline records them, --baseline hides them, so a
// project can switch guard on and fail only on what is new. A finding is
// matched by code, file and Fingerprint, never by line: code that moves, or
// lines inserted above it, do not bring it back; a changed statement does.
type Baseline struct {
	Tool    string          `json:"tool"`
	Format  int             `json:"format"`
	Entries []BaselineEntry `json:"findings"`
}

// BaselineEntry is one recorded finding, or several alike.
type BaselineEntry struct {
	Code string `json:"code"`
	// File is the finding's file, relative to the folder of the baseline
	// file in the file and in display form (as findings name it) once read;
	// empty for the findings of a live audit.
	File        string `json:"file,omitempty"`
	Fingerprint string `json:"fingerprint"`
	// Count is how many findings of one run share code, file and
	// fingerprint (the same statement twice in a file); for an audit, the
	// most any one target had.
	Count int `json:"count"`
	// Line and Message say where the finding stood and what it said when it
	// was recorded, for people reading the file; matching ignores them.
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// BaselineOutcome says what a baseline did to a run's findings.
type BaselineOutcome struct {
	// Hidden counts the findings the baseline matched.
	Hidden int
	// Stale lists the entries that no longer occur, with Count the number
	// of occurrences missing: the debt paid, to drop from the baseline.
	Stale []BaselineEntry
}

// Fingerprint identifies a finding apart from where it stands: its table,
// column and statement, the statement normalised by the parser (layout,
// comments, case of keywords and bound values do not count), or the table
// and column alone for a finding on the schema, or else its message with
// numbers and the live target left out. It never holds the file, the line
// or the target: one baseline serves every shard of an audit.
func Fingerprint(f Finding) string {
	var kind, text string
	switch {
	case f.SQL != "":
		kind, text = "statement", sqlparse.Normalize(f.SQL)
	case f.Table != "":
		kind = "object"
	default:
		msg := f.Message
		if f.Target != "" {
			msg = strings.ReplaceAll(msg, f.Target, "")
		}
		kind, text = "message", digits.ReplaceAllString(msg, "N")
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{kind, strings.ToLower(f.Table), strings.ToLower(f.ColumnName), text}, "\x00")))
	return hex.EncodeToString(sum[:16])
}

var digits = regexp.MustCompile(`[0-9]+`)

// baselineKey is what a baseline entry and a finding match on.
type baselineKey struct{ code, file, fingerprint string }

func keyOf(f Finding) baselineKey { return baselineKey{f.Code, f.File, Fingerprint(f)} }

// NewBaseline records findings. Those of several targets count per target.
func NewBaseline(fs []Finding) *Baseline {
	type group struct {
		target string
		key    baselineKey
	}
	perTarget := map[group]int{}
	first := map[baselineKey]Finding{}
	var order []baselineKey
	for _, f := range fs {
		k := keyOf(f)
		if _, ok := first[k]; !ok {
			first[k] = f
			order = append(order, k)
		}
		perTarget[group{f.Target, k}]++
	}
	counts := map[baselineKey]int{}
	for g, n := range perTarget {
		counts[g.key] = max(counts[g.key], n)
	}
	b := &Baseline{Tool: "guard", Format: BaselineFormat, Entries: []BaselineEntry{}}
	for _, k := range order {
		f := first[k]
		b.Entries = append(b.Entries, BaselineEntry{Code: k.code, File: k.file, Fingerprint: k.fingerprint, Count: counts[k], Line: f.Line, Message: f.Message})
	}
	sort.SliceStable(b.Entries, func(i, j int) bool {
		a, c := b.Entries[i], b.Entries[j]
		if a.File != c.File {
			return a.File < c.File
		}
		if a.Line != c.Line {
			return a.Line < c.Line
		}
		if a.Code != c.Code {
			return a.Code < c.Code
		}
		return a.Fingerprint < c.Fingerprint
	})
	return b
}

// Filter drops the findings the baseline records and says which entries no
// longer occur. An entry of count n hides up to n findings of each target:
// a third copy of a statement recorded twice is reported.
func (b *Baseline) Filter(fs []Finding) ([]Finding, BaselineOutcome) {
	want := map[baselineKey]int{}
	for _, e := range b.Entries {
		want[baselineKey{e.Code, e.File, e.Fingerprint}] += e.Count
	}
	type group struct {
		target string
		key    baselineKey
	}
	used := map[group]int{}
	usedMost := map[baselineKey]int{}
	var out BaselineOutcome
	kept := []Finding{}
	for _, f := range fs {
		k := keyOf(f)
		g := group{f.Target, k}
		if used[g] < want[k] {
			used[g]++
			usedMost[k] = max(usedMost[k], used[g])
			out.Hidden++
			continue
		}
		kept = append(kept, f)
	}
	for _, e := range b.Entries {
		k := baselineKey{e.Code, e.File, e.Fingerprint}
		// Entries of one key share its uses, first come first served.
		took := min(usedMost[k], e.Count)
		usedMost[k] -= took
		if took < e.Count {
			e.Count -= took
			out.Stale = append(out.Stale, e)
		}
	}
	return kept, out
}

// ReadBaseline reads a baseline file; its entries' files, written relative
// to the file's folder, come back in display form, as findings name them.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", path, err)
	}
	if b.Tool != "guard" || b.Format != BaselineFormat {
		return nil, fmt.Errorf("read baseline %s: not a guard baseline of format %d (tool %q, format %d)", path, BaselineFormat, b.Tool, b.Format)
	}
	dir := filepath.Dir(path)
	for i, e := range b.Entries {
		if e.Code == "" || e.Fingerprint == "" || e.Count < 1 {
			return nil, fmt.Errorf("read baseline %s: entry %d lacks a code, a fingerprint or a positive count", path, i+1)
		}
		if e.File != "" {
			b.Entries[i].File = DisplayPath(filepath.Join(dir, filepath.FromSlash(e.File)))
		}
	}
	return &b, nil
}

// WriteBaseline records findings in the file path, naming their files
// relative to its folder so that the baseline holds wherever guard runs.
func WriteBaseline(path string, fs []Finding) error {
	b := NewBaseline(fs)
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	for i, e := range b.Entries {
		if e.File == "" {
			continue
		}
		abs, err := filepath.Abs(filepath.FromSlash(e.File))
		if err != nil {
			return fmt.Errorf("write baseline: %w", err)
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil {
			return fmt.Errorf("write baseline: %s: %w", e.File, err)
		}
		b.Entries[i].File = filepath.ToSlash(rel)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	// Written beside and renamed, so that an interrupted write never leaves
	// half a baseline that would hide nothing.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return errors.Join(fmt.Errorf("write baseline: %w", err), os.Remove(tmp))
	}
	return nil
}
