package hostcode

// Text helpers every host language reader shares.

import (
	"bytes"
	"strings"
)

// LoneCRToLF returns src with each CR that no LF follows written as LF.
// Java ends a line at CR, LF or CR LF (JLS §3.4), as XML does, and a file
// saved with the old Mac line ends has no LF at all: read by LF alone, its
// first // comment would run to the end of the file. The length stays, and
// with it every offset; src itself is not written. (SQL is read as MySQL
// reads it: its -- comments end at LF only.)
func LoneCRToLF(src []byte) []byte {
	var out []byte
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 == len(src) || src[i+1] != '\n' {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = '\n'
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if out == nil {
		return src
	}
	return out
}

// SQLName reports whether a name says it holds SQL (deductSQL, insertQuery,
// sqlByID): a string that starts like SQL under such a name is SQL even when
// the file does not show where it runs, and is checked even if it does not
// parse.
func SQLName(name string) bool {
	n := strings.ToLower(name)
	if strings.Contains(n, "regex") || strings.Contains(n, "pattern") || strings.Contains(n, "keyword") {
		return false // SQL_REGEX, SQL_PATTERN: the words an injection filter looks for
	}
	return strings.Contains(n, "sql") || strings.Contains(n, "query")
}

// ConstantName reports whether name is written like a constant: upper
// case letters, digits and underscores, with at least one letter.
func ConstantName(name string) bool {
	letter := false
	for _, c := range []byte(name) {
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_' || c == '$':
		default:
			return false
		}
	}
	return letter
}

// sqlVerbs are the first words that make a string look like SQL. The
// decision is lexical on purpose: parsing would hide broken SQL, which must
// be reported rather than skipped.
var sqlVerbs = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "CREATE", "ALTER", "DROP", "TRUNCATE"}

// LooksLikeSQL reports whether s, after leading blanks, starts with a SQL
// verb followed by white space. Strings that do not are never reported, so
// that messages and other texts passed to the same methods stay quiet.
func LooksLikeSQL(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n\f")
	for _, w := range sqlVerbs {
		if len(s) > len(w) && strings.EqualFold(s[:len(w)], w) {
			switch s[len(w)] {
			case ' ', '\t', '\r', '\n', '\f':
				return true
			}
		}
	}
	return false
}
