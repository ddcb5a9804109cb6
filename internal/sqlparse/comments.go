package sqlparse

// Comment is a comment found in SQL text, without its markers.
type Comment struct {
	Text   string
	Offset int // byte offset of the comment's first marker
}

// Comments returns the comments of text (-- …, # …, /* … */), skipping
// quoted strings and identifiers. Executable /*! … */ and hint /*+ … */
// comments are SQL, not comments, and are not returned.
func Comments(text string) []Comment {
	var out []Comment
	n := len(text)
	for i := 0; i < n; {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(text, i)
		case c == '#':
			end := skipLine(text, i)
			out = append(out, Comment{Text: trimEOL(text[i+1 : end]), Offset: i})
			i = end
		case c == '-' && i+1 < n && text[i+1] == '-' && (i+2 == n || isSpace(text[i+2])):
			end := skipLine(text, i)
			out = append(out, Comment{Text: trimEOL(text[i+2 : end]), Offset: i})
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
			out = append(out, Comment{Text: body, Offset: i})
			i = end
		default:
			i++
		}
	}
	return out
}

func trimEOL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
