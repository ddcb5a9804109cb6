package lintcache

import (
	"maps"
	"slices"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// The encodings of guard's own types. Each writes every field of its type
// (TestEveryFieldRoundTrips fills each field by reflection and fails when
// one is lost): a field added to a type must be added here.

func writeFindings(w *Writer, fs []lint.Finding) {
	w.Len(len(fs), fs == nil)
	for i := range fs {
		writeFinding(w, &fs[i])
	}
}

func writeFinding(w *Writer, f *lint.Finding) {
	w.String(f.Code)
	w.String(f.Rule)
	w.String(string(f.Severity))
	w.String(f.File)
	w.Int(f.Line)
	w.Int(f.Column)
	w.Int(f.EndLine)
	w.String(f.Target)
	w.String(f.Table)
	w.String(f.ColumnName)
	w.String(f.Message)
	w.Text(f.Fix)
	w.Text(f.SQL)
	w.String(f.Digest)
	w.Int64(f.Executions)
	w.String(f.FirstSeen)
	w.String(f.LastSeen)
	w.Len(len(f.Settings), f.Settings == nil)
	for _, k := range slices.Sorted(maps.Keys(f.Settings)) {
		w.String(k)
		w.String(f.Settings[k])
	}
	w.Int(f.Databases)
	w.Bool(f.Gap != nil)
	if g := f.Gap; g != nil {
		w.String(g.Table)
		w.String(g.Rule)
		w.Strings(g.Columns)
		writeCheck(w, g.Unenforced)
		writeCheck(w, g.Restore)
	}
	w.Len(len(f.Causes), f.Causes == nil)
	for _, c := range f.Causes {
		w.String(c.File)
		w.Int(c.Line)
		w.Int(c.Col)
		w.Int(c.EndLine)
		w.Text(c.Call)
		w.Strings(c.Unchecked)
	}
}

func writeCheck(w *Writer, c *schema.Check) {
	w.Bool(c != nil)
	if c == nil {
		return
	}
	w.String(c.Name)
	w.String(c.Expr)
	w.Bool(c.Enforced)
	w.Strings(c.NonNegative)
}

// findingBytes is the fewest bytes a finding is written in.
const findingBytes = 21

func readFindings(r *Reader) []lint.Finding {
	n := r.Len(findingBytes)
	if n < 0 || r.err != nil {
		return nil
	}
	out := make([]lint.Finding, n)
	for i := range out {
		readFinding(r, &out[i])
	}
	return out
}

func readFinding(r *Reader, f *lint.Finding) {
	f.Code = r.String()
	f.Rule = r.String()
	f.Severity = policy.Severity(r.String())
	f.File = r.String()
	f.Line = r.Int()
	f.Column = r.Int()
	f.EndLine = r.Int()
	f.Target = r.String()
	f.Table = r.String()
	f.ColumnName = r.String()
	f.Message = r.String()
	f.Fix = r.Text()
	f.SQL = r.Text()
	f.Digest = r.String()
	f.Executions = r.Int64()
	f.FirstSeen = r.String()
	f.LastSeen = r.String()
	if n := r.Len(2); n >= 0 && r.err == nil {
		f.Settings = make(map[string]string, n)
		for range n {
			k := r.String()
			f.Settings[k] = r.String()
		}
	}
	f.Databases = r.Int()
	if r.Bool() {
		f.Gap = &lint.Gap{Table: r.String(), Rule: r.String(), Columns: r.Strings()}
		f.Gap.Unenforced = readCheck(r)
		f.Gap.Restore = readCheck(r)
	}
	if n := r.Len(6); n >= 0 && r.err == nil {
		f.Causes = make([]lint.Cause, n)
		for i := range f.Causes {
			c := &f.Causes[i]
			c.File, c.Line, c.Col, c.EndLine = r.String(), r.Int(), r.Int(), r.Int()
			c.Call, c.Unchecked = r.Text(), r.Strings()
		}
	}
}

func readCheck(r *Reader) *schema.Check {
	if !r.Bool() {
		return nil
	}
	return &schema.Check{Name: r.String(), Expr: r.String(), Enforced: r.Bool(), NonNegative: r.Strings()}
}

func writeObservations(w *Writer, os []lint.Observation) {
	w.Len(len(os), os == nil)
	for _, o := range os {
		w.Int(int(o.Kind))
		w.String(o.Table)
		w.String(o.Column)
		w.String(o.Value)
		w.String(o.File)
		w.Int(o.Line)
		w.Int(o.Count)
	}
}

func readObservations(r *Reader) []lint.Observation {
	n := r.Len(7)
	if n < 0 || r.err != nil {
		return nil
	}
	out := make([]lint.Observation, n)
	for i := range out {
		o := &out[i]
		o.Kind = lint.ObservationKind(r.Int())
		o.Table, o.Column, o.Value, o.File = r.String(), r.String(), r.String(), r.String()
		o.Line, o.Count = r.Int(), r.Int()
	}
	return out
}

func writeSuppressions(w *Writer, ss []stmt.Suppression) {
	w.Len(len(ss), ss == nil)
	for _, s := range ss {
		w.String(s.Code)
		w.String(s.Reason)
		w.Int(s.Line)
		w.Int(s.Col)
	}
}

func readSuppressions(r *Reader) []stmt.Suppression {
	n := r.Len(4)
	if n < 0 || r.err != nil {
		return nil
	}
	out := make([]stmt.Suppression, n)
	for i := range out {
		s := &out[i]
		s.Code, s.Reason, s.Line, s.Col = r.String(), r.String(), r.Int(), r.Int()
	}
	return out
}

func writeUses(w *Writer, u lint.Uses) {
	w.Len(len(u.First), u.First == nil)
	for _, x := range u.First {
		writeUse(w, x)
	}
	w.Int(u.N)
}

func writeUse(w *Writer, x lint.Use) {
	w.String(x.File)
	w.Int(x.Line)
	w.String(x.Verb)
}

func readUses(r *Reader) lint.Uses {
	var u lint.Uses
	if n := r.Len(3); n >= 0 && r.err == nil {
		u.First = make([]lint.Use, n)
		for i := range u.First {
			u.First[i] = readUse(r)
		}
	}
	u.N = r.Int()
	return u
}

func readUse(r *Reader) lint.Use { return lint.Use{File: r.String(), Line: r.Int(), Verb: r.String()} }

// writeUsage writes a Usage, nil kept apart from empty.
func writeUsage(w *Writer, u *lint.Usage) {
	w.Bool(u != nil)
	if u == nil {
		return
	}
	ts := u.Export()
	w.Len(len(ts), false)
	for _, t := range ts {
		w.String(t.Name)
		writeUses(w, t.All)
		writeUses(w, t.Positional)
		for _, cs := range [][]lint.ColumnUses{t.Columns, t.Written} {
			w.Len(len(cs), false)
			for _, c := range cs {
				w.String(c.Column)
				writeUses(w, c.Uses)
			}
		}
		w.Len(len(t.Inserts), false)
		for _, in := range t.Inserts {
			writeUse(w, in.Use)
			w.Strings(in.Columns)
		}
	}
}

func readUsage(r *Reader) *lint.Usage {
	if !r.Bool() {
		return nil
	}
	n := r.Len(5)
	if n < 0 || r.err != nil {
		r.fail()
		return nil
	}
	ts := make([]lint.UsageTable, n)
	for i := range ts {
		t := &ts[i]
		t.Name = r.String()
		t.All, t.Positional = readUses(r), readUses(r)
		for _, cs := range []*[]lint.ColumnUses{&t.Columns, &t.Written} {
			m := r.Len(3)
			for k := 0; k < m && r.err == nil; k++ {
				*cs = append(*cs, lint.ColumnUses{Column: r.String(), Uses: readUses(r)})
			}
		}
		m := r.Len(4)
		for k := 0; k < m && r.err == nil; k++ {
			t.Inserts = append(t.Inserts, lint.InsertUse{Use: readUse(r), Columns: r.Strings()})
		}
	}
	if r.err != nil {
		return nil
	}
	return lint.UsageFrom(ts)
}

func writePairs(w *Writer, ps [][2]string) {
	w.Len(len(ps), ps == nil)
	for _, p := range ps {
		w.String(p[0])
		w.String(p[1])
	}
}

func readPairs(r *Reader) [][2]string {
	n := r.Len(2)
	if n < 0 || r.err != nil {
		return nil
	}
	out := make([][2]string, n)
	for i := range out {
		out[i] = [2]string{r.String(), r.String()}
	}
	return out
}
