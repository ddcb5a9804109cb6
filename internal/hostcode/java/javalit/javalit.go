// Package javalit decodes the values of Java string literals and text
// blocks, each byte kept at the position of the source character it came
// from: the escapes of JLS §3.10.7 and the incidental indentation a text
// block strips (String.stripIndent).
package javalit

import (
	"bytes"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
)

// textBlockLine is one line of a text block's content.
type textBlockLine struct {
	b    []byte
	line int
}

func blank(b []byte) bool {
	for _, c := range b {
		if !space(c) {
			return false
		}
	}
	return true
}

func space(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\r' }

// StripIndent applies String.stripIndent to the raw content of a text
// block (what stands between the opening line break and the closing """),
// whose first line is file line firstLine. The last line, the one holding
// the closing delimiter, always counts for the common indentation.
func StripIndent(content []byte, firstLine int) hostcode.Text {
	var lines []textBlockLine
	for n, rest := firstLine, content; ; n++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			lines = append(lines, textBlockLine{b: rest, line: n})
			break
		}
		lines = append(lines, textBlockLine{b: rest[:i], line: n})
		rest = rest[i+1:]
	}
	indent := -1
	for i, l := range lines {
		last := i == len(lines)-1
		if !last && blank(l.b) {
			continue
		}
		w := 0
		for w < len(l.b) && space(l.b[w]) {
			w++
		}
		if indent < 0 || w < indent {
			indent = w
		}
	}
	var out hostcode.Text
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			out = append(out, hostcode.Char{B: '\n', Line: prev.line, Col: len(prev.b) + 1})
		}
		if blank(l.b) {
			continue
		}
		b := l.b[min(indent, len(l.b)):]
		end := len(b)
		for end > 0 && space(b[end-1]) {
			end--
		}
		for k := 0; k < end; k++ {
			out = append(out, hostcode.Char{B: b[k], Line: l.line, Col: indent + k + 1})
		}
	}
	return out
}

// escapes maps the letter after a backslash to the byte it stands for.
var escapes = map[byte]byte{'n': '\n', 't': '\t', 'b': '\b', 'f': '\f', 'r': '\r', 's': ' ', '"': '"', '\'': '\'', '\\': '\\'}

// Unescape interprets the escape sequences of a literal's content. Each
// byte of the result keeps the position of the source character it came from
// (an escape maps to its backslash). An unknown escape is kept as written.
func Unescape(raw hostcode.Text) hostcode.Text {
	if !strings.Contains(raw.String(), `\`) {
		return raw
	}
	out := make(hostcode.Text, 0, len(raw))
	for k := 0; k < len(raw); k++ {
		c := raw[k]
		if c.B != '\\' || k+1 >= len(raw) {
			out = append(out, c)
			continue
		}
		e := raw[k+1].B
		switch {
		case escapes[e] != 0:
			out = append(out, hostcode.Char{B: escapes[e], Line: c.Line, Col: c.Col})
			k++
		case e == '\n':
			// A line continuation inside a text block.
			k++
		case e >= '0' && e <= '7':
			n, v := 1, int(e-'0')
			maxDigits := 2
			if e <= '3' {
				maxDigits = 3
			}
			for n < maxDigits && k+1+n < len(raw) && raw[k+1+n].B >= '0' && raw[k+1+n].B <= '7' {
				v = v*8 + int(raw[k+1+n].B-'0')
				n++
			}
			out = out.AppendRune(rune(v), c.Line, c.Col)
			k += n
		case e == 'u':
			j := k + 1
			for j < len(raw) && raw[j].B == 'u' {
				j++
			}
			v, ok := 0, j+4 <= len(raw)
			for d := 0; ok && d < 4; d++ {
				h := hexDigit(raw[j+d].B)
				ok = h >= 0
				v = v*16 + h
			}
			if !ok {
				out = append(out, c)
				continue
			}
			out = out.AppendRune(rune(v), c.Line, c.Col)
			k = j + 3
		default:
			out = append(out, c)
		}
	}
	return out
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
