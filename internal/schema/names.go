package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// MaxIdentLen is MySQL's and MariaDB's limit for table, column, index and
// constraint names.
const MaxIdentLen = 64

// GuardName builds the name of a guard object, e.g. GuardName("uk",
// "t_order", "order_no") = "uk_t_order_order_no" and GuardName("chk",
// "t_inventory", "inventory", "nonneg"). Names longer than MaxIdentLen keep
// their start and end in a readable form and a hash of the whole name, so
// they stay unique and within the limit.
func GuardName(parts ...string) string {
	name := strings.ToLower(strings.Join(parts, "_"))
	if len(name) <= MaxIdentLen {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	tag := "_" + hex.EncodeToString(sum[:4])
	// Cut on a character boundary: half a UTF-8 character is no name.
	cut := MaxIdentLen - len(tag)
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return strings.TrimRight(name[:cut], "_") + tag
}

// QuoteIdent returns name backtick-quoted when it needs quoting (anything but
// letters, digits, _ and $, or a leading digit), with backticks doubled.
func QuoteIdent(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain && !isReserved(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// isReserved reports whether the plain (ASCII) name is a reserved word. It
// upper-cases into a buffer on the stack, since quoting runs for every name
// of every finding and strings.ToUpper allocated each time.
func isReserved(name string) bool {
	var buf [16]byte
	if len(name) > len(buf) {
		return reserved[strings.ToUpper(name)]
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return reserved[string(buf[:len(name)])]
}

// reserved lists the keywords that plausibly name a column or table and must
// be quoted; QuoteIdent quotes them.
var reserved = map[string]bool{
	"ORDER": true, "GROUP": true, "KEY": true, "INDEX": true, "DESC": true, "ASC": true,
	"SELECT": true, "UPDATE": true, "DELETE": true, "INSERT": true, "TABLE": true, "FROM": true, "WHERE": true,
	"CHECK": true, "CONSTRAINT": true, "PRIMARY": true, "UNIQUE": true, "DEFAULT": true, "RANGE": true,
	"READ": true, "WRITE": true, "LOCK": true, "RANK": true, "ROWS": true, "ROW": true, "CONDITION": true,
}
