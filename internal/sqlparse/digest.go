package sqlparse

import "github.com/pingcap/tidb/pkg/parser"

// Normalize returns the parser's normalised form of a statement: keywords
// in lower case, white space and comments folded, literals and parameter
// markers as ?, lists of values as (...). Two texts of the same statement
// that differ in layout, comments or the values they bind normalise alike;
// the text need not parse.
func Normalize(sql string) string {
	normalized, _ := parser.NormalizeDigest(NormalizePlaceholders(sql))
	return normalized
}
