package mybatisxml

import (
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// The placeholders of mapper text: where a #{…} or ${…} opens and closes,
// what a rendering writes for it, and the values they bind, as the
// statement names them: #{delta} is the mapper method's parameter delta (or the property delta of
// its one parameter object), which the method's callers pass. A rendering
// records, for each ? it writes, the name of the value, or "" for one no
// caller passes by that name: a ${…} substitution, the item of a <foreach>,
// a <bind> variable. The lint driver resolves the names with the parameters
// of the mapper interface's method (stmt.ParamSource.Name).

// bindName is the caller's value the #{…} holding expr binds, "" when it
// is none: a name the statement gives a value itself.
func (r *mbRender) bindName(expr string) string {
	name := ValueName(expr)
	root, _, _ := strings.Cut(name, ".")
	for _, l := range r.locals {
		if l == root {
			return ""
		}
	}
	return name
}

// ValueName is the value a #{…} holding expr binds, as a property path
// (`delta,jdbcType=INTEGER` is delta, ` dto.delta ` is dto.delta); "" for
// an expression that is none.
func ValueName(expr string) string {
	name, _, _ := strings.Cut(expr, ",")
	name = strings.TrimSpace(name)
	if !mbPlainPath(name) {
		return ""
	}
	return name
}

// mbPlainPath reports whether s is a property path: names joined by dots.
func mbPlainPath(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || !mbIdentStart(part[0]) {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !mbIdentByte(part[i]) {
				return false
			}
		}
	}
	return true
}

// mbIdentStart reports whether c may start a Java name.
func mbIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// unbound records the placeholders of text, written for a ${…}, as binding
// no value of the caller's.
func (r *mbRender) unbound(text string) {
	r.binds = Unbound(r.binds, text)
}

// Unbound appends to names one "" for each placeholder of text: SQL the
// mapper pastes (a ${…}), whose values no caller names.
func Unbound(names []string, text string) []string {
	if strings.IndexByte(text, '?') < 0 {
		return names
	}
	for range sqlparse.PlaceholderNames(text) {
		names = append(names, "")
	}
	return names
}

// ParamSources returns the placeholders of sql, statement id of a mapper,
// that bind a value its caller passes, from names, the name of the value
// of each placeholder in order ("" for none). Only a statement that adds
// (`c = c + #{delta}`) needs them, and none is given unless sql has one
// placeholder for each name.
func ParamSources(sql, id string, names []string) []stmt.ParamSource {
	if strings.IndexByte(sql, '+') < 0 || len(sqlparse.PlaceholderNames(sql)) != len(names) {
		return nil
	}
	var out []stmt.ParamSource
	for k, name := range names {
		if name != "" {
			out = append(out, stmt.ParamSource{Param: k, Arg: -1, Func: id, Name: name})
		}
	}
	return out
}

// mbBound is what stands for the #{…} of s from k to end: the JDBC marker,
// or, written against a string literal (`like "%"#{name}"%"`), an empty
// literal. MyBatis sends the marker and the driver inlines the value as a
// quoted string (Connector/J prepares on the client by default), which
// MySQL joins to the literals beside it; a bare ? between them does not
// parse.
func mbBound(s []byte, k, end int) string {
	quote := func(b byte) bool { return b == '\'' || b == '"' }
	if k > 0 && quote(s[k-1]) || end+1 < len(s) && quote(s[end+1]) {
		return "''"
	}
	return "?"
}

// mbPlaceholderEnd returns the offset of the "}" that closes the placeholder
// opening at k, or -1. MyBatis substitutes ${…} before it binds #{…}, so a
// #{…} may hold a ${…} (`#{record.${column.javaProperty}}`): it ends at the
// first "}" outside one.
func mbPlaceholderEnd(s []byte, k int) int {
	nested := false
	for j := k + 2; j < len(s); j++ {
		switch {
		case s[k] == '#' && !nested && s[j] == '$' && j+1 < len(s) && s[j+1] == '{':
			nested = true
			j++
		case s[j] == '}' && nested:
			nested = false
		case s[j] == '}':
			return j
		}
	}
	return -1
}

// mbNextPlaceholder returns the offset of the next "#{" or "${" at or after i, or -1.
func mbNextPlaceholder(s []byte, i int) int {
	for j := i; j+1 < len(s); j++ {
		if (s[j] == '#' || s[j] == '$') && s[j+1] == '{' {
			return j
		}
	}
	return -1
}
