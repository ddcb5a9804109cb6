package java

import (
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
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

// javaSQLWords are the first words that make a string look like SQL.
var javaSQLWords = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "CREATE", "ALTER", "DROP", "TRUNCATE"}

// javaLooksLikeSQL reports whether s, after leading blanks, starts with a SQL
// verb followed by white space. Strings that do not are never reported, so
// that messages and other texts passed to the same methods stay quiet.
func javaLooksLikeSQL(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n\f")
	for _, w := range javaSQLWords {
		if len(s) > len(w) && strings.EqualFold(s[:len(w)], w) {
			switch s[len(w)] {
			case ' ', '\t', '\r', '\n', '\f':
				return true
			}
		}
	}
	return false
}

// looksLikeSQL is javaLooksLikeSQL of t, reading only its first word.
func (t Text) looksLikeSQL() bool {
	i := 0
	for i < len(t) && (t[i].B == ' ' || t[i].B == '\t' || t[i].B == '\r' || t[i].B == '\n' || t[i].B == '\f') {
		i++
	}
	return javaLooksLikeSQL(t[i:min(len(t), i+16)].String())
}

// javaMyBatisPlaceholders rewrites the parameters of MyBatis annotation SQL:
// #{x} becomes the JDBC marker ? and so does ${x}, which is also recorded as a
// Dollar so that the substitution is reported while the rest of the statement
// is still checked; a MyBatis-Plus wrapper segment (${ew.customSqlSegment})
// becomes its stand-in instead, and callerWhere reports that the WHERE is
// the caller's wrapper. A backslash before the opening token escapes it, as in
// MyBatis' own token parser; a token that never closes is left as written.
func javaMyBatisPlaceholders(t Text) (out Text, dollars []stmt.Dollar, callerWhere bool) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		opens := func(j int) bool {
			return j+1 < len(t) && (t[j].B == '#' || t[j].B == '$') && t[j+1].B == '{'
		}
		if c.B == '\\' && opens(i+1) {
			out = append(out, t[i+1], t[i+2])
			i += 2
			continue
		}
		if !opens(i) {
			out = append(out, c)
			continue
		}
		end := -1
		for j := i + 2; j < len(t); j++ {
			if t[j].B == '}' {
				end = j
				break
			}
		}
		if end < 0 {
			out = append(out, t[i:]...)
			break
		}
		expr := strings.TrimSpace(t[i+2 : end].String())
		if k := mybatisxml.PlusWrapperSegment(expr); c.B == '$' && k != mybatisxml.PlusNone {
			// A MyBatis-Plus wrapper's segment (xml_mpsegment.go).
			callerWhere = callerWhere || k == mybatisxml.PlusWhere || k == mybatisxml.PlusCondition
			for j := 0; j < len(mybatisxml.PlusStandIn(k)); j++ {
				out = append(out, Char{B: mybatisxml.PlusStandIn(k)[j], Line: c.Line, Col: c.Col})
			}
			i = end
			continue
		}
		if c.B == '$' {
			dollars = append(dollars, stmt.Dollar{Expr: expr, Line: c.Line, Col: c.Col})
		}
		out = append(out, Char{B: '?', Line: c.Line, Col: c.Col})
		i = end
	}
	return out, dollars, callerWhere
}
