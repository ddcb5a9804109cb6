package java

import (
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/stmt"
)

// javaChar is one byte of a string value with the file position of the
// source character it came from.
type javaChar struct {
	b         byte
	line, col int
}

// javaText is a string value that remembers, byte by byte, where it stands in
// the file. Joining, escapes and placeholder rewriting keep the positions;
// segments compresses them into Fragment.Segments at the end.
type javaText []javaChar

func (t javaText) String() string {
	var sb strings.Builder
	sb.Grow(len(t))
	for _, c := range t {
		sb.WriteByte(c.b)
	}
	return sb.String()
}

// appendRune appends the UTF-8 bytes of r, all at one position.
func (t javaText) appendRune(r rune, line, col int) javaText {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for _, b := range buf[:n] {
		t = append(t, javaChar{b: b, line: line, col: col})
	}
	return t
}

// segments returns the text and the fewest segments that map each of its
// bytes back to the file: a new segment starts only where a byte does not
// stand where Fragment.Pos would put it after the previous one.
func (t javaText) segments() (string, []stmt.Segment) {
	var segs []stmt.Segment
	line, col := 0, 0 // where Pos predicts the next byte
	for i, c := range t {
		if len(segs) == 0 || c.line != line || c.col != col {
			segs = append(segs, stmt.Segment{Off: i, Line: c.line, Col: c.col})
		}
		line, col = c.line, c.col+1
		if c.b == '\n' {
			line, col = c.line+1, 1
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
func (t javaText) looksLikeSQL() bool {
	i := 0
	for i < len(t) && (t[i].b == ' ' || t[i].b == '\t' || t[i].b == '\r' || t[i].b == '\n' || t[i].b == '\f') {
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
func javaMyBatisPlaceholders(t javaText) (out javaText, dollars []stmt.Dollar, callerWhere bool) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		opens := func(j int) bool {
			return j+1 < len(t) && (t[j].b == '#' || t[j].b == '$') && t[j+1].b == '{'
		}
		if c.b == '\\' && opens(i+1) {
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
			if t[j].b == '}' {
				end = j
				break
			}
		}
		if end < 0 {
			out = append(out, t[i:]...)
			break
		}
		expr := strings.TrimSpace(t[i+2 : end].String())
		if k := mybatisxml.PlusWrapperSegment(expr); c.b == '$' && k != mybatisxml.PlusNone {
			// A MyBatis-Plus wrapper's segment (xml_mpsegment.go).
			callerWhere = callerWhere || k == mybatisxml.PlusWhere || k == mybatisxml.PlusCondition
			for j := 0; j < len(mybatisxml.PlusStandIn(k)); j++ {
				out = append(out, javaChar{b: mybatisxml.PlusStandIn(k)[j], line: c.line, col: c.col})
			}
			i = end
			continue
		}
		if c.b == '$' {
			dollars = append(dollars, stmt.Dollar{Expr: expr, Line: c.line, Col: c.col})
		}
		out = append(out, javaChar{b: '?', line: c.line, col: c.col})
		i = end
	}
	return out, dollars, callerWhere
}
