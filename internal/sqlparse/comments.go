package sqlparse

import (
	"iter"
	"strings"
)

// Comment is a comment found in SQL text, without its markers.
type Comment struct {
	Text   string
	Offset int // byte offset of the comment's first marker
}

// Comments yields the comments of text (-- …, # …, /* … */) in order,
// skipping quoted strings and identifiers. Executable /*! … */ and hint
// /*+ … */ comments are SQL, not comments, and are not yielded. A file of
// statements commented one by one holds as many comments as statements:
// they are yielded, not gathered.
func Comments(text string) iter.Seq[Comment] {
	return func(yield func(Comment) bool) {
		eachComment(text, yield)
	}
}

// eachComment calls yield with each comment of text until it returns false.
func eachComment(text string, yield func(Comment) bool) {
	n := len(text)
	for i := 0; i < n; {
		for i < n && !commentStops[text[i]] {
			i++
		}
		if i == n {
			return
		}
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(text, i)
		case c == '#':
			end := skipLine(text, i)
			if !yield(Comment{Text: trimEOL(text[i+1 : end]), Offset: i}) {
				return
			}
			i = end
		case c == '-' && i+1 < n && text[i+1] == '-' && (i+2 == n || isSpace(text[i+2])):
			end := skipLine(text, i)
			if !yield(Comment{Text: trimEOL(text[i+2 : end]), Offset: i}) {
				return
			}
			i = end
		case c == '/' && i+1 < n && text[i+1] == '*':
			end := skipBlockComment(text, i)
			if i+2 < n && (text[i+2] == '!' || text[i+2] == '+') {
				i = end
				continue
			}
			body := text[i+2 : end]
			if len(body) >= 2 && body[len(body)-2:] == "*/" {
				body = body[:len(body)-2]
			}
			if !yield(Comment{Text: body, Offset: i}) {
				return
			}
			i = end
		default:
			i++
		}
	}
}

// commentStops marks the bytes that may open a quote or a comment; the
// scan steps over any other.
var commentStops = [256]bool{'\'': true, '"': true, '`': true, '#': true, '-': true, '/': true}

func trimEOL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// Hints yields the bodies of the optimizer hint comments (/*+ … */) of
// text, skipping quoted strings and identifiers. The parser keeps only the
// hints it knows; a vendor's (AliSQL's TARGET_AFFECT_ROW) stands only here.
func Hints(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		n := len(text)
		for i := 0; i < n; {
			switch c := text[i]; {
			case c == '\'' || c == '"' || c == '`':
				i = skipQuoted(text, i)
			case c == '#' || c == '-' && i+2 < n && text[i+1] == '-' && isSpace(text[i+2]):
				i = skipLine(text, i)
			case c == '/' && i+1 < n && text[i+1] == '*':
				end := skipBlockComment(text, i)
				if i+2 < n && text[i+2] == '+' {
					body := text[i+3 : end]
					body = strings.TrimSuffix(body, "*/")
					if !yield(body) {
						return
					}
				}
				i = end
			default:
				i++
			}
		}
	}
}

// PostgresMark returns the first mark of PostgreSQL syntax in text that
// MySQL has no use of — a $1 placeholder, a :: cast, a BIGSERIAL column,
// ON CONFLICT, NULLS FIRST/LAST, ILIKE — or "" when it holds none. Quoted
// strings, identifiers and comments are skipped.
func PostgresMark(text string) string {
	var words []string
	mark, n := "", len(text)
	scanCode(text, func(i int) int {
		c := text[i]
		switch {
		case c == '$' && i+1 < n && text[i+1] >= '1' && text[i+1] <= '9':
			mark = "$" + text[i+1:i+2] + " placeholders"
		case c == ':' && i+2 < n && text[i+1] == ':' && NameByte(text[i+2]):
			mark = ":: casts"
		case NameByte(c):
			j := i
			for j < n && NameByte(text[j]) {
				j++
			}
			w := strings.ToUpper(text[i:j])
			last := ""
			if len(words) > 0 {
				last = words[len(words)-1]
			}
			switch {
			case w == "BIGSERIAL" || w == "ILIKE":
				mark = w
			case last == "ON" && w == "CONFLICT" || last == "NULLS" && (w == "FIRST" || w == "LAST"):
				mark = last + " " + w
			}
			words = append(words, w)
			if mark == "" {
				return j
			}
		}
		if mark != "" {
			return n
		}
		return i + 1
	})
	return mark
}
