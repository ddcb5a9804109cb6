package hostcode

import (
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/stmt"
)

// Char is one byte of a string value with the file position of the
// source character it came from.
type Char struct {
	B         byte
	Line, Col int
}

// Text is a string value that remembers, byte by byte, where it stands in
// the file. Joining, escapes and placeholder rewriting keep the positions;
// segments compresses them into Fragment.Segments at the end.
type Text []Char

func (t Text) String() string {
	var sb strings.Builder
	sb.Grow(len(t))
	for _, c := range t {
		sb.WriteByte(c.B)
	}
	return sb.String()
}

// AppendRune appends the UTF-8 bytes of r, all at one position.
func (t Text) AppendRune(r rune, line, col int) Text {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for _, b := range buf[:n] {
		t = append(t, Char{B: b, Line: line, Col: col})
	}
	return t
}

// Segments returns the text and the fewest Segments that map each of its
// bytes back to the file: a new segment starts only where a byte does not
// stand where Fragment.Pos would put it after the previous one.
func (t Text) Segments() (string, []stmt.Segment) {
	var segs []stmt.Segment
	line, col := 0, 0 // where Pos predicts the next byte
	for i, c := range t {
		if len(segs) == 0 || c.Line != line || c.Col != col {
			segs = append(segs, stmt.Segment{Off: i, Line: c.Line, Col: c.Col})
		}
		line, col = c.Line, c.Col+1
		if c.B == '\n' {
			line, col = c.Line+1, 1
		}
	}
	return t.String(), segs
}

// LooksLikeSQL is LooksLikeSQL of t, reading only its first word.
func (t Text) LooksLikeSQL() bool {
	i := 0
	for i < len(t) && (t[i].B == ' ' || t[i].B == '\t' || t[i].B == '\r' || t[i].B == '\n' || t[i].B == '\f') {
		i++
	}
	return LooksLikeSQL(t[i:min(len(t), i+16)].String())
}
