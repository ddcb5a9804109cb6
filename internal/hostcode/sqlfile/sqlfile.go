package source

import (
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// ExtractSQL returns a .sql file as one fragment, with its -- guard:ignore
// comments as suppressions. A leading UTF-8 byte order mark is not SQL (the
// parser would read it as part of the first word) and is dropped; the
// columns of the first line are then counted as an editor shows them.
func ExtractSQL(path string, src []byte) *File {
	text := strings.TrimPrefix(string(src), "\ufeff")
	f := &File{Path: path, Lang: LangSQL}
	lines := sqlparse.NewLineCounter(text)
	for c := range sqlparse.Comments(text) {
		if code, reason, ok := ParseSuppression(c.Text); ok {
			line, col := lines.At(c.Offset)
			f.Suppressions = append(f.Suppressions, Suppression{Code: code, Reason: reason, Line: line, Col: col})
		}
	}
	end, _ := sqlparse.LineCol(text, len(text))
	f.Fragments = []*Fragment{{
		File: path, Lang: LangSQL, SQL: text,
		Segments: []Segment{{Off: 0, Line: 1, Col: 1}},
		Line:     1, EndLine: end, Col: 1,
	}}
	return f
}
