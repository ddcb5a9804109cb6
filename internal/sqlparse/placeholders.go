package sqlparse

import (
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/test_driver"
)

// NormalizePlaceholders rewrites the named and numbered parameters of client
// libraries — `:name` (sqlx, Spring's NamedParameterJdbcTemplate) and `?1`
// (JPA native queries) — into the `?` the parser knows. The result has the
// same length as sql: the rest of the name becomes spaces, so every offset
// still points at the same character of the original text. Quoted strings,
// identifiers and comments are left alone, as is `:=`.
//
// A parameter right after IN (`id IN ?`, `id IN :ids`) binds a list the
// client expands (GORM and Spring Data write `(?, ?, …)` in its place), and
// it becomes `(?)` where the blanks around the parameter leave room.
func NormalizePlaceholders(sql string) string {
	var b []byte // copied on the first change
	scanPlaceholders(sql, func(s, e int, _ string) {
		k, in := inBefore(sql, s)
		if !in && sql[s] == '?' && e == s+1 {
			return // already the parser's
		}
		if b == nil {
			b = []byte(sql)
		}
		if in && expandIn(b, sql, k, s, e) {
			return
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

// inBefore reports whether the placeholder at s follows the word IN, past
// blanks, and returns where the word starts.
func inBefore(sql string, s int) (k int, ok bool) {
	t := s
	for t > 0 && isSpace(sql[t-1]) {
		t--
	}
	if t < 2 || sql[t-2]|0x20 != 'i' || sql[t-1]|0x20 != 'n' || t > 2 && (isNameByte(sql[t-3]) || sql[t-3] == '.' || sql[t-3] == '`') {
		return 0, false
	}
	return t - 2, true
}

// expandIn writes `(?)` into b for the placeholder [s, e) after the IN at
// k, in the blanks between IN and the placeholder, the placeholder itself
// and the spaces after it. It reports false, and writes nothing, when those
// hold fewer than three characters (`id IN ?` at the end of the text: see
// ExpandInLists) or a line break.
func expandIn(b []byte, sql string, k, s, e int) bool {
	lo, hi := k+2, e
	for hi < len(sql) && (sql[hi] == ' ' || sql[hi] == '\t') {
		hi++
	}
	if hi-lo < 3 || strings.ContainsAny(sql[lo:s], "\r\n") {
		return false // a line break stays, and with it every line of the parser's errors
	}
	b[lo], b[lo+1], b[lo+2] = '(', '?', ')'
	for j := lo + 3; j < hi; j++ {
		b[j] = ' '
	}
	return true
}

// ExpandInLists writes each bare `?` right after IN as `(?)`, the list a
// client that expands a slice (GORM) or a collection (Spring Data) sends in
// its place. The text grows by two characters for each; ok is false when
// there is none. It is for a second parse of text NormalizePlaceholders
// found no room in.
func ExpandInLists(sql string) (out string, ok bool) {
	var b strings.Builder
	last := 0
	scanPlaceholders(sql, func(s, e int, _ string) {
		if _, in := inBefore(sql, s); !in || sql[s] != '?' || e != s+1 {
			return
		}
		b.WriteString(sql[last:s])
		b.WriteString("(?)")
		last = e
	})
	if last == 0 {
		return sql, false
	}
	b.WriteString(sql[last:])
	return b.String(), true
}

// scanPlaceholders calls fn for each placeholder of sql in the order of the
// text, outside quoted strings, identifiers and comments: `?`, `?1` and
// `:name` (not `:=`), with its byte range [s, e) and, for `:name`, the name.
func scanPlaceholders(sql string, fn func(s, e int, name string)) {
	n := len(sql)
	scanCode(sql, func(i int) int {
		switch c := sql[i]; {
		case c == ':' && i+1 < n && isNameStart(sql[i+1]) && (i == 0 || !isNameByte(sql[i-1]) && sql[i-1] != ':'):
			j := i + 1
			for j < n && (isNameByte(sql[j]) || sql[j] == '.') {
				j++
			}
			fn(i, j, sql[i+1:j])
			return j
		case c == '?':
			j := i + 1
			for j < n && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			fn(i, j, "")
			return j
		}
		return i + 1
	})
}

// scanCode calls visit at each byte of sql outside quoted strings,
// identifiers and comments, and goes on from the offset visit returns
// (past i; len(sql) stops the scan).
func scanCode(sql string, visit func(i int) int) {
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
		default:
			i = visit(i)
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

// PlaceholderAt returns the byte range of the k-th placeholder (from 0) of
// sql, as scanPlaceholders finds them; false when sql has fewer.
func PlaceholderAt(sql string, k int) (s, e int, ok bool) {
	n := 0
	scanPlaceholders(sql, func(ps, pe int, _ string) {
		if n == k {
			s, e, ok = ps, pe, true
		}
		n++
	})
	return s, e, ok
}
