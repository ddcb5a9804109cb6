package lintcache

// The report entry as Reader reads it: the oracle ServeReport, which reads
// the entry's file through a small buffer, is held to.

// ReportEntry is what a command printed of a run's result.
type ReportEntry struct {
	Worst          int
	Stdout, Stderr string
}

// EncodeReport is the payload of r, as StartReport and the report's
// writes make it.
func EncodeReport(r *ReportEntry) []byte {
	return encode(func(w *Writer) {
		w.Int(r.Worst)
		w.Text(r.Stderr)
		w.bytes(r.Stdout)
	})
}

// DecodeReport reads a report entry's payload; false when it cannot.
func DecodeReport(b []byte) (*ReportEntry, bool) {
	r := NewReader(b)
	e := &ReportEntry{Worst: r.Int()}
	e.Stderr = r.Text()
	e.Stdout = r.Rest()
	return e, r.Done() == nil
}

// Rest reads the bytes Entry.Write appended after the last value, as a
// string.
func (r *Reader) Rest() string {
	if r.err != nil {
		return ""
	}
	off := r.end - len(r.body)
	r.body = r.body[len(r.body):]
	return r.all[off:r.end]
}
