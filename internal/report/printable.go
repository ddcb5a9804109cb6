package report

import "io"

// PrintableWriter returns a writer that passes what it is given to w with
// its control characters (but newlines and tabs) and invalid UTF-8 escaped,
// as the text format prints findings: text that quotes files or database
// values must not drive the user's terminal. Each Write must hold whole characters, as the fmt
// functions' writes do; a character cut in two would print escaped.
func PrintableWriter(w io.Writer) io.Writer { return printableWriter{w} }

type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, printable(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}
