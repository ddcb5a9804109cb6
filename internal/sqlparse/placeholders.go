package sqlparse

import (
	"sort"

	"github.com/pingcap/tidb/pkg/parser/test_driver"
)

// NormalizePlaceholders rewrites the named and numbered parameters of client
// libraries — `:name` (sqlx, Spring's NamedParameterJdbcTemplate) and `?1`
// (JPA native queries) — into the `?` the parser knows. The result has the
// same length as sql: the rest of the name becomes spaces, so every offset
// still points at the same character of the original text. Quoted strings,
// identifiers and comments are left alone, as is `:=`.
func NormalizePlaceholders(sql string) string {
	var b []byte // copied on the first change
	scanPlaceholders(sql, func(s, e int, _ string) {
		if sql[s] == '?' && e == s+1 {
			return // already the parser's
		}
		if b == nil {
			b = []byte(sql)
		}
		b[s] = '?'
		for j := s + 1; j < e; j++ {
			b[j] = ' '
		}
	})
	if b == nil {
		return sql
	}
	return string(b)
}

// scanPlaceholders calls fn for each placeholder of sql in the order of the
// text, outside quoted strings, identifiers and comments: `?`, `?1` and
// `:name` (not `:=`), with its byte range [s, e) and, for `:name`, the name.
func scanPlaceholders(sql string, fn func(s, e int, name string)) {
	n := len(sql)
	for i := 0; i < n; {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(sql, i)
		case c == '#':
			i = skipLine(sql, i)
		case c == '-' && i+1 < n && sql[i+1] == '-' && (i+2 == n || isSpace(sql[i+2])):
			i = skipLine(sql, i)
		case c == '/' && i+1 < n && sql[i+1] == '*':
			i = skipBlockComment(sql, i)
		case c == ':' && i+1 < n && isNameStart(sql[i+1]) && (i == 0 || !isNameByte(sql[i-1]) && sql[i-1] != ':'):
			j := i + 1
			for j < n && (isNameByte(sql[j]) || sql[j] == '.') {
				j++
			}
			fn(i, j, sql[i+1:j])
			i = j
		case c == '?':
			j := i + 1
			for j < n && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			fn(i, j, "")
			i = j
		default:
			i++
		}
	}
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '$'
}

// ParamOrdinals numbers the `?` placeholders of a parsed statement in the
// order they stand in its text, from 0: the order in which a client binds its
// arguments to them.
func ParamOrdinals(n Node) map[ParamMarkerExpr]int {
	v := &paramCollector{}
	n.Accept(v)
	sort.SliceStable(v.marks, func(i, j int) bool { return v.marks[i].Offset < v.marks[j].Offset })
	out := make(map[ParamMarkerExpr]int, len(v.marks))
	for i, m := range v.marks {
		out[m] = i
	}
	return out
}

type paramCollector struct {
	marks []*test_driver.ParamMarkerExpr
}

func (v *paramCollector) Enter(n Node) (Node, bool) {
	if m, ok := n.(*test_driver.ParamMarkerExpr); ok {
		v.marks = append(v.marks, m)
	}
	return n, false
}

func (v *paramCollector) Leave(n Node) (Node, bool) { return n, true }

// PlaceholderNames lists the placeholders of sql in the order of the text,
// as NormalizePlaceholders finds them: the name of a `:name` parameter,
// "" for `?` and `?1`.
func PlaceholderNames(sql string) []string {
	var out []string
	scanPlaceholders(sql, func(_, _ int, name string) { out = append(out, name) })
	return out
}
