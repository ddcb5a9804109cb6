package sqlfile

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// ExtractSQL returns a .sql file as one fragment, with its -- guard:ignore
// comments as suppressions. A leading UTF-8 byte order mark is not SQL (the
// parser would read it as part of the first word) and is dropped; the
// columns of the first line are then counted as an editor shows them.
func ExtractSQL(path string, src []byte) *hostcode.File {
	text := strings.TrimPrefix(string(src), "\ufeff")
	f := &hostcode.File{Path: path, Lang: stmt.LangSQL}
	lines := sqlparse.NewLineCounter(text)
	for c := range sqlparse.Comments(text) {
		if code, reason, ok := hostcode.ParseSuppression(c.Text); ok {
			line, col := lines.At(c.Offset)
			f.Suppressions = append(f.Suppressions, stmt.Suppression{Code: code, Reason: reason, Line: line, Col: col})
		}
	}
	end, _ := sqlparse.LineCol(text, len(text))
	f.Fragments = []*stmt.Fragment{{
		File: path, Lang: stmt.LangSQL, SQL: text,
		Segments: []stmt.Segment{{Off: 0, Line: 1, Col: 1}},
		Line:     1, EndLine: end, Col: 1,
	}}
	return f
}
