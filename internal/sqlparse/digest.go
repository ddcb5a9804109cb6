package sqlparse

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
)

// Normalize returns the parser's normalised form of a statement: keywords
// in lower case, white space and comments folded, literals and parameter
// markers as ?, lists of values as (...). Two texts of the same statement
// that differ in layout, comments or the values they bind normalise alike;
// the text need not parse.
func Normalize(sql string) string {
	normalized, _ := parser.NormalizeDigest(NormalizePlaceholders(sql))
	return normalized
}

// DigestText is a statement as performance_schema's digest tables record
// it (DIGEST_TEXT): names quoted, literals as ?, a list of values as (...)
// and the rows of an INSERT past the first as /* , ... */.
type DigestText struct {
	// SQL is the text with each (...) made (?), so that it parses; the
	// offsets of everything else are kept.
	SQL string
	// Truncated says the server cut the text at its maximum digest length
	// and marked the cut with "...": the rest of the statement is unknown.
	Truncated bool
	// Verb is the statement's first keyword in upper case (UPDATE, SELECT…).
	Verb string
}

// ReadDigest reads a digest text: MySQL 8's, MariaDB's and MySQL 5.7's
// have the same shape.
func ReadDigest(text string) DigestText {
	toks := scriptTokens(text)
	d := DigestText{SQL: text}
	if len(toks) > 0 {
		d.Verb = toks[0].upper()
	}
	var b strings.Builder
	last := 0
	for i := 0; i+4 < len(toks); i++ {
		switch {
		case toks[i].text == "(" && ellipsisAt(toks, i+1) && toks[i+4].text == ")" && !toks[i+4].quoted:
			b.WriteString(text[last:toks[i].end])
			b.WriteString("?  ") // as long as "...", so offsets stay
			last = toks[i+3].end
			i += 4
		case toks[i].text == "@" && toks[i+1].text == "@" && toks[i+2].word && toks[i+3].text == "." && !toks[i+3].quoted:
			// @@GLOBAL . `sql_mode`: the digest spaces the dot of a
			// system variable's scope, which the parser takes for a
			// column; the spaces move after the name.
			b.WriteString(text[last:toks[i+2].end])
			name := strings.TrimLeft(text[toks[i+3].end:toks[i+4].end], " \t\n")
			b.WriteString("." + name)
			b.WriteString(strings.Repeat(" ", toks[i+4].end-toks[i+2].end-1-len(name)))
			last = toks[i+4].end
			i += 4
		}
	}
	if last > 0 {
		b.WriteString(text[last:])
		d.SQL = b.String()
	}
	if n := len(toks); n >= 3 && ellipsisAt(toks, n-3) {
		d.Truncated = true
	}
	return d
}

// ellipsisAt reports whether toks[i:i+3] are three adjacent dots.
func ellipsisAt(toks []token, i int) bool {
	if i+3 > len(toks) {
		return false
	}
	for k := i; k < i+3; k++ {
		if toks[k].text != "." || toks[k].quoted || (k > i && toks[k].end != toks[k-1].end+1) {
			return false
		}
	}
	return true
}

// WrittenTable reads, from the head of a statement, the one table it
// writes when its grammar allows only one: INSERT [LOW_PRIORITY | DELAYED |
// HIGH_PRIORITY] [IGNORE] [INTO] name (REPLACE alike), CREATE [TEMPORARY]
// TABLE [IF NOT EXISTS] name, ALTER [ONLINE] [IGNORE] TABLE name; name may
// be schema.name. Only the head is read, so it answers for a digest text
// that does not parse: one the server cut, or DDL whose lengths it printed
// as (?). ok is false for any other statement.
func WrittenTable(sql string) (schema, table string, ok bool) {
	var buf [10]token
	toks := leadTokens(buf[:0], sql, len(buf))
	if len(toks) == 0 {
		return "", "", false
	}
	skip := func(i int, words ...string) int {
		for i < len(toks) && slices.Contains(words, toks[i].upper()) {
			i++
		}
		return i
	}
	var i int
	switch toks[0].upper() {
	case "INSERT", "REPLACE":
		i = skip(1, "LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE", "INTO")
	case "CREATE", "ALTER":
		if toks[0].upper() == "CREATE" {
			i = skip(1, "TEMPORARY")
		} else {
			i = skip(1, "ONLINE", "IGNORE")
		}
		if i >= len(toks) || toks[i].upper() != "TABLE" {
			return "", "", false
		}
		i++
		if i+1 < len(toks) && toks[i].upper() == "IF" {
			i = skip(i+1, "NOT", "EXISTS")
		}
	default:
		return "", "", false
	}
	schema, table, _, ok = readName(toks, i)
	return schema, table, ok
}
