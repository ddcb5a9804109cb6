package sqlparse

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// A Breach is one kind of value a column of one type holds that a
// narrower type does not: the rows that hold one make a MODIFY or CHANGE
// to that type fail in strict sql_mode (or lose the value outside it),
// and an old release's writes of one fail. guard lint (GM006, GM007) and
// guard migrate's preflight read the same breaches, so that what lint
// says the preflight counts is what it counts.
type Breach struct {
	// Values says which values, after "rows whose c": "is longer than 32
	// characters", "is negative", "lies outside -128..127", "is 'a' or
	// 'b'", "holds 'c'", "has more than 2 decimals".
	Values string
	// Where is the SQL condition that holds for the rows holding one.
	Where string
	// Lax says what becomes of them outside strict sql_mode: "are cut
	// short", "are clamped", "are set to ''", "lose the value".
	Lax string
	// Rounds says the change rounds them in every sql_mode: it never
	// fails on them, and the preflight does not count them.
	Rounds bool
	// Charset says that only a multi-byte character set can hold them
	// (characters into a byte limit four times as large): the live
	// preflight counts them, guard lint, which does not know the
	// character set, does not claim them.
	Charset bool
}

// Breaches lists the values of the column quoted as q that type from
// holds and type to does not. judged is false for a pair of types it does
// not compare: a change across families (a string to a number, a date to
// a string), or between strings whose capacity depends on the character
// set (bytes to characters); such a change is not said to be safe, only
// not judged value by value.
func Breaches(from, to ColumnType, q string) (bs []Breach, judged bool) {
	f, t := normal(from), normal(to)
	switch {
	case intBytes[t.Name] > 0 && (intBytes[f.Name] > 0 || isDecimal(f.Name) || isFloat(f.Name)):
		return rangeBreach(f, t, q, q), true
	case isDecimal(t.Name) && (intBytes[f.Name] > 0 || isDecimal(f.Name) || isFloat(f.Name)):
		bs := rangeBreach(f, t, q, "ROUND("+q+", "+strconv.Itoa(t.Scale)+")")
		if isDecimal(f.Name) && t.Scale < f.Scale {
			bs = append(bs, Breach{
				Values: "has more than " + plural(t.Scale, "decimal"),
				Where:  q + " <> ROUND(" + q + ", " + strconv.Itoa(t.Scale) + ")",
				Rounds: true,
			})
		}
		return bs, true
	case (f.Name == "enum" && t.Name == "enum") || (f.Name == "set" && t.Name == "set"):
		return memberBreach(f, t, q), true
	}
	return stringBreach(f, t, q)
}

// rangeBreach is the breach of a number type whose range shrinks from f's
// to t's; r is the value the server compares, q rounded to t's scale for a
// DECIMAL (a value that rounds into the range fits).
func rangeBreach(f, t ColumnType, q, r string) []Breach {
	lo, hi := numberRange(t)
	flo, fhi, bounded := lo, hi, !isFloat(f.Name)
	if bounded {
		flo, fhi = numberRange(f)
	}
	below := !bounded || less(flo, lo)
	above := !bounded || less(hi, fhi)
	b := Breach{Lax: "are clamped"}
	switch {
	case below && above:
		b.Values, b.Where = "lies outside "+lo+".."+hi, r+" < "+lo+" OR "+r+" > "+hi
	case below && lo == "0":
		b.Values, b.Where = "is negative", r+" < 0"
	case below:
		b.Values, b.Where = "is below "+lo, r+" < "+lo
	case above:
		b.Values, b.Where = "is above "+hi, r+" > "+hi
	default:
		return nil
	}
	return []Breach{b}
}

// memberBreach lists the ENUM or SET values f declares and t does not,
// compared without case as the default collations compare them.
func memberBreach(f, t ColumnType, q string) []Breach {
	var lits []string
	for _, v := range f.Elems {
		if !containsFold(t.Elems, v) {
			lits = append(lits, QuoteString(v))
		}
	}
	if len(lits) == 0 {
		return nil
	}
	if f.Name == "enum" {
		return []Breach{{
			Values: "is " + strings.Join(lits, " or "),
			Where:  q + " IN (" + strings.Join(lits, ", ") + ")",
			Lax:    "are set to ''",
		}}
	}
	conds := make([]string, len(lits))
	for i, l := range lits {
		conds[i] = "FIND_IN_SET(" + l + ", " + q + ") > 0"
	}
	return []Breach{{
		Values: "holds " + strings.Join(lits, " or "),
		Where:  strings.Join(conds, " OR "),
		Lax:    "lose the value",
	}}
}

// The units string capacities are counted in.
const (
	unitNone      = iota
	unitChars     // CHAR, VARCHAR: characters
	unitBytes     // BINARY, VARBINARY: bytes
	unitTextBytes // TINYTEXT … LONGTEXT: bytes of characters
	unitBlobBytes // TINYBLOB … LONGBLOB: bytes
	unitMembers   // ENUM, SET: their values
)

// stringBreach judges a change between string types. A character takes up
// to four bytes, so characters fit a byte limit four times as large; bytes
// become characters only through a character set, which is not judged.
func stringBreach(f, t ColumnType, q string) ([]Breach, bool) {
	n, fu := capacity(f)
	m, tu := capacity(t)
	if fu == unitNone || tu == unitNone || tu == unitMembers {
		return nil, false
	}
	chars := func() []Breach {
		return []Breach{{Values: "is longer than " + itoa(m) + " characters", Where: "CHAR_LENGTH(" + q + ") > " + itoa(m), Lax: "are cut short"}}
	}
	bytes := func() []Breach {
		return []Breach{{Values: "is longer than " + itoa(m) + " bytes", Where: "LENGTH(" + q + ") > " + itoa(m), Lax: "are cut short"}}
	}
	switch {
	case tu == unitChars && (fu == unitChars || fu == unitTextBytes || fu == unitMembers):
		// A TEXT of n bytes holds up to n single-byte characters.
		if m < n {
			return chars(), true
		}
		return nil, true
	case tu == unitChars, tu == unitTextBytes && (fu == unitBytes || fu == unitBlobBytes):
		return nil, false // bytes read as characters: the character set decides
	case fu == unitChars:
		if 4*n > m {
			bs := bytes()
			bs[0].Charset = n <= m
			return bs, true
		}
		return nil, true
	case fu == unitMembers:
		return nil, false
	}
	if m < n {
		return bytes(), true
	}
	return nil, true
}

// capacity is how much a string type holds, and in which unit: the
// longest value of an ENUM (or all values of a SET, with their commas).
// A TEXT or BLOB declared with a length is not judged: the server picks
// the type from the length and the character set.
func capacity(t ColumnType) (int64, int) {
	switch t.Name {
	case "char", "varchar":
		if t.Length >= 0 {
			return int64(t.Length), unitChars
		}
	case "binary", "varbinary":
		if t.Length >= 0 {
			return int64(t.Length), unitBytes
		}
	case "enum", "set":
		var n int64
		for _, e := range t.Elems {
			if t.Name == "enum" {
				n = max(n, int64(len([]rune(e))))
			} else {
				n += int64(len([]rune(e))) + 1
			}
		}
		return n, unitMembers
	}
	if limit, ok := textLimits[t.Name]; ok && t.Length < 0 {
		if strings.HasSuffix(t.Name, "text") {
			return limit, unitTextBytes
		}
		return limit, unitBlobBytes
	}
	return 0, unitNone
}

// Narrowing says what values of type from a column of type to can no
// longer hold or take as written: "" when every value of from fits (a
// widening, or the same type), else why not ("VARCHAR(64) to
// VARCHAR(32): a value that is longer than 32 characters fails"). Beyond
// Breaches it judges what an old release writes across families: a number
// or a date into a string too short for it, a string into a number or
// JSON, a DOUBLE into a FLOAT.
func Narrowing(from, to ColumnType) string {
	f, t := normal(from), normal(to)
	if f.Name == t.Name && f.Length == t.Length && f.Scale == t.Scale && f.Unsigned == t.Unsigned && sameElems(f.Elems, t.Elems) {
		return ""
	}
	change := from.Text() + " to " + to.Text()
	bs, judged := Breaches(from, to, "c")
	var why []string
	for _, b := range bs {
		switch {
		case b.Charset:
			// Not claimed without the character set.
		case b.Rounds:
			why = append(why, "a value that "+b.Values+" is rounded")
		default:
			why = append(why, "a value that "+b.Values+" fails")
		}
	}
	if len(why) > 0 {
		return change + ": " + strings.Join(why, "; ")
	}
	if judged {
		return ""
	}
	switch {
	case f.Name == "double" && t.Name == "float":
		return change + ": a value loses precision"
	case isFloat(f.Name) && isFloat(t.Name):
		return ""
	case temporal[f.Name] && f.Name == t.Name:
		if t.Scale < f.Scale {
			return fmt.Sprintf("%s: fractional seconds are rounded to %d digits", change, t.Scale)
		}
		return ""
	case f.Name == "date" && t.Name == "date", f.Name == "year" && t.Name == "year":
		return ""
	}
	if limit, unit := capacity(t); unit == unitChars || unit == unitTextBytes {
		if w, ok := textWidth(f); ok {
			// A number or a date written as text.
			if limit < w {
				return fmt.Sprintf("%s: a value longer than %d characters fails", change, limit)
			}
			return ""
		}
	}
	if _, tu := capacity(t); tu == unitBytes || tu == unitBlobBytes {
		if _, fu := capacity(f); fu == unitTextBytes || fu == unitChars {
			return "" // text kept as bytes, and the byte limits are Breaches'
		}
	}
	return change + ": a value of the old type may not convert"
}

// Text writes the type as a declaration would: "VARCHAR(32)", "INT UNSIGNED".
func (c ColumnType) Text() string {
	n := normal(c)
	s := strings.ToUpper(n.Name)
	switch {
	case isDecimal(n.Name):
		s += fmt.Sprintf("(%d,%d)", n.Length, n.Scale)
	case n.Name == "enum" || n.Name == "set":
		quoted := make([]string, len(n.Elems))
		for i, e := range n.Elems {
			quoted[i] = QuoteString(e)
		}
		s += "(" + strings.Join(quoted, ",") + ")"
	case n.Name == "char" || n.Name == "varchar" || n.Name == "binary" || n.Name == "varbinary":
		s += fmt.Sprintf("(%d)", n.Length)
	case temporal[n.Name] && n.Scale > 0:
		s += fmt.Sprintf("(%d)", n.Scale)
	}
	if n.Unsigned {
		s += " UNSIGNED"
	}
	return s
}

// QuoteString writes s as an SQL string literal that means s whether or
// not the server treats backslashes as escapes.
func QuoteString(s string) string {
	if strings.ContainsRune(s, '\\') {
		return "X'" + strings.ToUpper(hex.EncodeToString([]byte(s))) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

var intBytes = map[string]int{"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "bigint": 8}

var temporal = map[string]bool{"datetime": true, "timestamp": true, "time": true}

// textLimits are the byte limits of the TEXT and BLOB types.
var textLimits = map[string]int64{
	"tinytext": 255, "text": 65535, "mediumtext": 16777215, "longtext": 4294967295,
	"tinyblob": 255, "blob": 65535, "mediumblob": 16777215, "longblob": 4294967295,
}

// normal fills in the lengths a declaration leaves to the server.
func normal(c ColumnType) ColumnType {
	switch c.Name {
	case "integer":
		c.Name = "int"
	case "numeric":
		c.Name = "decimal"
	}
	switch {
	case isDecimal(c.Name):
		if c.Length < 0 {
			c.Length = 10
		}
		if c.Scale < 0 {
			c.Scale = 0
		}
	case c.Name == "char" || c.Name == "binary":
		if c.Length < 0 {
			c.Length = 1
		}
	case temporal[c.Name]:
		if c.Scale < 0 {
			c.Scale = 0
		}
	}
	if intBytes[c.Name] > 0 {
		c.Length, c.Scale = -1, -1 // a display width holds no value
	}
	return c
}

// numberRange is the least and greatest value of an integer or DECIMAL
// type, as decimal text.
func numberRange(t ColumnType) (lo, hi string) {
	if b := intBytes[t.Name]; b > 0 {
		bits := uint(8 * b)
		if t.Unsigned {
			return "0", strconv.FormatUint(uint64(1)<<bits-1, 10)
		}
		return strconv.FormatInt(int64(-1)<<(bits-1), 10), strconv.FormatUint(uint64(1)<<(bits-1)-1, 10)
	}
	hi = "0"
	if t.Length > t.Scale {
		hi = strings.Repeat("9", t.Length-t.Scale)
	}
	if t.Scale > 0 {
		hi += "." + strings.Repeat("9", t.Scale)
	}
	if t.Unsigned {
		return "0", hi
	}
	return "-" + hi, hi
}

// textWidth is how many characters the longest value of a number or date
// type takes as text; false for any other type.
func textWidth(c ColumnType) (int64, bool) {
	switch {
	case intBytes[c.Name] > 0:
		lo, hi := numberRange(c)
		return int64(max(len(lo), len(hi))), true
	case isDecimal(c.Name):
		return int64(c.Length + 2), true
	case c.Name == "date":
		return 10, true
	case c.Name == "year":
		return 4, true
	case c.Name == "time":
		return int64(10 + c.Scale + 1), true
	case c.Name == "datetime" || c.Name == "timestamp":
		return int64(19 + c.Scale + 1), true
	}
	return 0, false
}

func isDecimal(name string) bool { return name == "decimal" || name == "numeric" }

func isFloat(name string) bool { return name == "float" || name == "double" }

// less compares two decimal numbers written as text.
func less(a, b string) bool {
	x, okx := new(big.Rat).SetString(a)
	y, oky := new(big.Rat).SetString(b)
	return okx && oky && x.Cmp(y) < 0
}

func sameElems(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// plural is n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
