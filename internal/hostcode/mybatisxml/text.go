package mybatisxml

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/stmt"
)

// mbText is SQL text under construction together with the file position of
// every run of it, so that rendered MyBatis SQL still points into the mapper.
// Segments follow the rules of Fragment.Segments.
type mbText struct {
	s    []byte
	segs []stmt.Segment
	// nl, when set, holds the offset of every '\n' of s, so that positions
	// in a whole document are found without counting from its start.
	nl []int
}

// mbDocText returns the text of a whole document, indexed by its line ends.
func mbDocText(s []byte, segs []stmt.Segment) mbText {
	t := mbText{s: s, segs: segs}
	for i := bytes.IndexByte(s, '\n'); i >= 0; {
		t.nl = append(t.nl, i)
		j := bytes.IndexByte(s[i+1:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return t
}

// mbWord returns text that tag machinery generates (WHERE, SET, a foreach's
// parentheses), all of it attributed to one file position.
func mbWord(w string, line, col int) mbText {
	if w == "" {
		return mbText{}
	}
	return mbText{s: []byte(w), segs: []stmt.Segment{{Off: 0, Line: line, Col: col}}}
}

// posAt returns the file position of byte offset off, as Fragment.Pos does.
func (t mbText) posAt(off int) (line, col int) {
	if len(t.segs) == 0 {
		return 1, 1
	}
	lo, hi := 0, len(t.segs)
	for lo < hi { // last segment with Off <= off
		m := (lo + hi) / 2
		if t.segs[m].Off <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	s := t.segs[max(lo-1, 0)]
	off = min(off, len(t.s))
	if off < s.Off {
		return s.Line, s.Col
	}
	if t.nl != nil {
		// Line ends in [s.Off, off), found by binary search.
		a, _ := slices.BinarySearch(t.nl, s.Off)
		b, _ := slices.BinarySearch(t.nl, off)
		if b > a {
			return s.Line + b - a, off - t.nl[b-1]
		}
		return s.Line, s.Col + off - s.Off
	}
	run := t.s[s.Off:off]
	if nl := bytes.Count(run, []byte{'\n'}); nl > 0 {
		return s.Line + nl, len(run) - bytes.LastIndexByte(run, '\n')
	}
	return s.Line, s.Col + len(run)
}

// slice returns bytes [a, b) with their positions. The result never shares
// spare capacity with t, so appending to it cannot overwrite t.
func (t mbText) slice(a, b int) mbText {
	a, b = max(a, 0), min(b, len(t.s))
	if a >= b {
		return mbText{}
	}
	line, col := t.posAt(a)
	out := mbText{s: t.s[a:b:b], segs: []stmt.Segment{{Off: 0, Line: line, Col: col}}}
	for _, sg := range t.segs {
		if sg.Off > a && sg.Off < b {
			out.segs = append(out.segs, stmt.Segment{Off: sg.Off - a, Line: sg.Line, Col: sg.Col})
		}
	}
	return out
}

// add appends o. A segment that merely continues where t ends is dropped.
func (t *mbText) add(o mbText) {
	if len(o.s) == 0 {
		return
	}
	if len(t.s) == 0 {
		t.s = append([]byte(nil), o.s...)
		t.segs = append([]stmt.Segment(nil), o.segs...)
		return
	}
	t.nl = nil // the index no longer covers the text
	base := len(t.s)
	segs := o.segs
	if l, c := t.posAt(base); len(segs) > 0 && segs[0].Off == 0 && segs[0].Line == l && segs[0].Col == c {
		segs = segs[1:]
	}
	t.s = append(t.s, o.s...)
	for _, sg := range segs {
		t.segs = append(t.segs, stmt.Segment{Off: sg.Off + base, Line: sg.Line, Col: sg.Col})
	}
}

// mbDecodeText turns the raw bytes of an XML text token (src[a:b] of the
// document) into its character data with positions: a CDATA section keeps its
// content verbatim, entities and character references are decoded. Line ends
// are kept as written so that offsets stay in step with the file.
func mbDecodeText(doc mbText, a, b int) mbText {
	raw := doc.s[a:b]
	const open, closing = "<![CDATA[", "]]>"
	if bytes.HasPrefix(raw, []byte(open)) && bytes.HasSuffix(raw, []byte(closing)) && len(raw) >= len(open)+len(closing) {
		return doc.slice(a+len(open), b-len(closing))
	}
	var out mbText
	i := a
	for i < b {
		amp := bytes.IndexByte(doc.s[i:b], '&')
		if amp < 0 {
			out.add(doc.slice(i, b))
			break
		}
		amp += i
		out.add(doc.slice(i, amp))
		val, n := mbEntity(doc.s[amp:b])
		line, col := doc.posAt(amp)
		out.add(mbWord(val, line, col))
		i = amp + n
	}
	return out
}

// mbEntity decodes the entity or character reference at the start of s and
// returns its value and length; anything else stands for itself.
func mbEntity(s []byte) (string, int) {
	end := bytes.IndexByte(s, ';')
	if len(s) < 2 || s[0] != '&' || end < 0 {
		return "&", 1
	}
	name := string(s[1:end])
	switch name {
	case "lt":
		return "<", end + 1
	case "gt":
		return ">", end + 1
	case "amp":
		return "&", end + 1
	case "apos":
		return "'", end + 1
	case "quot":
		return `"`, end + 1
	}
	if len(name) > 1 && name[0] == '#' {
		base, digits := 10, name[1:]
		if digits[0] == 'x' {
			base, digits = 16, digits[1:]
		}
		if n, err := strconv.ParseUint(digits, base, 32); err == nil && utf8.ValidRune(rune(n)) {
			return string(rune(n)), end + 1
		}
	}
	return "&", 1
}

// mbUpperASCII upper-cases ASCII letters only, keeping byte offsets intact.
func mbUpperASCII(s []byte) []byte {
	out := make([]byte, len(s))
	for i, c := range s {
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// mbJavaTrim returns the bounds of s without leading and trailing bytes up to
// and including the space, as Java's String.trim, which MyBatis uses.
func mbJavaTrim(s []byte) (a, b int) {
	a, b = 0, len(s)
	for a < b && s[a] <= ' ' {
		a++
	}
	for b > a && s[b-1] <= ' ' {
		b--
	}
	return a, b
}
