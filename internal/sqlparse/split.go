// Package sqlparse is guard's only door to the TiDB SQL parser: it cuts texts into
// statements, parses them with positions, and turns parse errors into positioned errors.
package sqlparse

import (
	"strings"
)

// Piece is one statement cut from a larger text by Split.
type Piece struct {
	// Text is the statement without its terminating delimiter, starting at its
	// first token (leading blanks and comments are not part of it).
	Text string
	// Offset is the byte offset of Text in the text given to Split.
	Offset int
}

// Split cuts text into statements on the current delimiter (";" unless a mysql
// client DELIMITER line changes it), honouring quotes, backticks and comments.
// Pieces holding only blanks and comments are dropped.
func Split(text string) []Piece {
	var pieces []Piece
	delim := ";"
	start := -1 // offset of the first token of the current statement
	i := 0
	n := len(text)
	emit := func(end int) {
		if start >= 0 {
			body := strings.TrimRight(text[start:end], " \t\r\n")
			if body != "" {
				pieces = append(pieces, Piece{Text: body, Offset: start})
			}
		}
		start = -1
	}
	stops := stopBytes(delim)
	for i < n {
		if start >= 0 {
			// Inside a statement only a quote, a comment, an executable
			// comment or the delimiter changes anything: step over the
			// bytes in between without looking at each in turn.
			for i < n && !stops[text[i]] {
				i++
			}
			if i == n {
				break
			}
		}
		c := text[i]
		// The mysql client's commands are only recognised at the start of
		// a statement.
		if start < 0 && (c == 'D' || c == 'd' || c == 'S' || c == 's' || c == '\\') && atLineStart(text, i) {
			if next, d, ok := clientCommand(text, i); ok {
				if d != "" {
					delim, stops = d, stopBytes(d)
				}
				i = next
				continue
			}
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case c == '#':
			i = skipLine(text, i)
			continue
		case c == '-' && i+1 < n && text[i+1] == '-' && (i+2 == n || isSpace(text[i+2])):
			i = skipLine(text, i)
			continue
		case c == '/' && i+1 < n && text[i+1] == '*' && !(i+2 < n && (text[i+2] == '!' || text[i+2] == '+')):
			i = skipBlockComment(text, i)
			continue
		}
		// delim is never empty; testing its first byte first keeps the
		// per-byte loop from comparing a prefix at every character.
		if c == delim[0] && strings.HasPrefix(text[i:], delim) {
			emit(i)
			i += len(delim)
			continue
		}
		if start < 0 {
			start = i
		}
		switch c {
		case '\'', '"', '`':
			i = skipQuoted(text, i)
		case '/':
			if i+1 < n && text[i+1] == '*' { // executable or hint comment: part of the statement
				i = skipBlockComment(text, i)
			} else {
				i++
			}
		default:
			i++
		}
	}
	emit(n)
	return pieces
}

// clientCommand reads a mysql client command at i, the start of a line: a
// DELIMITER line (delim the delimiter it names, "" when it names none),
// SOURCE file, or a backslash command (\. file, and psql's \c db of a
// script written for both). None is a statement: next is the offset past
// its line. ok is false when no command stands at i.
func clientCommand(text string, i int) (next int, delim string, ok bool) {
	switch {
	case hasWordPrefix(text[i:], "delimiter"):
		delim, next = delimiterCommand(text, i)
		return next, delim, true
	case text[i] == '\\' || hasWordPrefix(text[i:], "source"):
		return skipLine(text, i), "", true
	}
	return i, "", false
}

// delimiterCommand reads the mysql client's DELIMITER line at i, which is no
// statement but changes how the next ones end: it returns the delimiter the
// line names ("" when it names none) and the offset just past the line. Only
// Split's rare path calls it, so its per-byte loop stays as short as it was.
func delimiterCommand(text string, i int) (delim string, next int) {
	lineEnd := strings.IndexByte(text[i:], '\n')
	if lineEnd < 0 {
		lineEnd = len(text) - i
	}
	return strings.TrimSpace(text[i+len("delimiter") : i+lineEnd]), i + lineEnd
}

// stopBytes marks the bytes at which Split, inside a statement, has to
// look: quotes, the first bytes of comments and delim's first byte.
func stopBytes(delim string) *[256]bool {
	var stops [256]bool
	for _, c := range []byte{'\'', '"', '`', '#', '-', '/', delim[0]} {
		stops[c] = true
	}
	return &stops
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func atLineStart(text string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch text[j] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

func hasWordPrefix(s, word string) bool {
	if len(s) <= len(word) || !strings.EqualFold(s[:len(word)], word) {
		return false
	}
	return s[len(word)] == ' ' || s[len(word)] == '\t'
}

func skipLine(text string, i int) int {
	j := strings.IndexByte(text[i:], '\n')
	if j < 0 {
		return len(text)
	}
	return i + j + 1
}

func skipBlockComment(text string, i int) int {
	j := strings.Index(text[i+2:], "*/")
	if j < 0 {
		return len(text)
	}
	return i + 2 + j + 2
}

// skipQuoted returns the offset just past the quoted string or identifier at i.
// Backslash escapes apply inside ' and " strings; a doubled quote escapes itself.
func skipQuoted(text string, i int) int {
	q := text[i]
	j := i + 1
	for j < len(text) {
		c := text[j]
		switch {
		case c == '\\' && q != '`':
			j += 2
		case c == q:
			if j+1 < len(text) && text[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		default:
			j++
		}
	}
	return len(text)
}
