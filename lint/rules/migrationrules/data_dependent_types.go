package migrationrules

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// breach is one way a narrower type meets existing rows: the rows it
// breaks, in words, and the SQL condition that finds them. uncounted says
// that guard migrate's preflight does not count them: the change does not
// fail on them (a rounding), or the preflight cannot yet tell (an ENUM or
// SET value removed).
type breach struct {
	rows      string
	where     string
	uncounted bool
}

// narrowing lists the values of column col (as written) that type before
// holds and type after does not. It compares types of one family only
// (strings counted in characters, strings counted in bytes, integers,
// decimals, ENUM, SET): a change across families, or one whose capacity
// depends on the character set, is not judged.
func narrowing(col string, before replayedColumn, after sqlparse.ColumnType) []breach {
	was := " (it was " + before.text + ")"
	q := quoteName(col)
	b := before.typ
	switch {
	case isInteger(b.Name) && isInteger(after.Name):
		return integerNarrowing(col, q, was, b, after)
	case b.Name == "decimal" && after.Name == "decimal":
		return decimalNarrowing(col, q, was, b, after)
	case b.Name == "enum" && after.Name == "enum", b.Name == "set" && after.Name == "set":
		return memberNarrowing(col, q, was, b, after)
	}
	if n, unit, ok := stringCapacity(b); ok {
		if m, afterUnit, ok := stringCapacity(after); ok && m < n {
			switch {
			case afterUnit == unitChars && (unit == unitChars || unit == unitTextBytes):
				// A TEXT of n bytes holds up to n single-byte characters.
				return []breach{{
					rows:  "rows whose " + col + " is longer than " + itoa(m) + " characters" + was + " fail it, or are cut short outside strict sql_mode",
					where: "CHAR_LENGTH(" + q + ") > " + itoa(m),
				}}
			case afterUnit == unit || afterUnit == unitBytes && unit == unitBlobBytes || afterUnit == unitBlobBytes && unit == unitBytes:
				what := "bytes"
				if unit == unitTextBytes {
					what = "bytes of text"
				}
				return []breach{{
					rows:  "rows whose " + col + " is longer than " + itoa(m) + " " + what + was + " fail it, or are cut short outside strict sql_mode",
					where: "LENGTH(" + q + ") > " + itoa(m),
				}}
			}
		}
	}
	return nil
}

// The units string capacities are counted in.
const (
	unitChars     = iota // CHAR, VARCHAR: characters
	unitBytes            // VARBINARY, BINARY: bytes
	unitTextBytes        // TINYTEXT … LONGTEXT: bytes of characters
	unitBlobBytes        // TINYBLOB … LONGBLOB: bytes
)

// stringCapacity is how much a string type holds, and in which unit. A
// BINARY before a change is not judged (its values are padded to its
// length), nor a TEXT or BLOB declared with a length (the server picks the
// type from the length and the character set).
func stringCapacity(t sqlparse.ColumnType) (n int64, unit int, ok bool) {
	length := int64(t.Length)
	switch t.Name {
	case "char":
		return max(length, 1), unitChars, true
	case "varchar":
		return length, unitChars, length >= 0
	case "binary":
		return max(length, 1), unitBytes, true
	case "varbinary":
		return length, unitBytes, length >= 0
	}
	sizes := map[string]int64{"tiny": 1<<8 - 1, "": 1<<16 - 1, "medium": 1<<24 - 1, "long": 1<<32 - 1}
	if t.Length > 0 {
		return 0, 0, false
	}
	if size, isText := strings.CutSuffix(t.Name, "text"); isText {
		if n, ok := sizes[size]; ok {
			return n, unitTextBytes, true
		}
	}
	if size, isBlob := strings.CutSuffix(t.Name, "blob"); isBlob {
		if n, ok := sizes[size]; ok {
			return n, unitBlobBytes, true
		}
	}
	return 0, 0, false
}

// integerBytes is the storage size of each integer type.
var integerBytes = map[string]uint{"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "bigint": 8}

func isInteger(name string) bool {
	_, ok := integerBytes[name]
	return ok
}

// integerRange is the smallest and largest value of an integer type, as
// decimal text.
func integerRange(t sqlparse.ColumnType) (lo, hi string) {
	bits := 8 * integerBytes[t.Name]
	if t.Unsigned {
		return "0", strconv.FormatUint(uint64(1)<<bits-1, 10)
	}
	return strconv.FormatInt(int64(-1)<<(bits-1), 10), strconv.FormatUint(uint64(1)<<(bits-1)-1, 10)
}

func integerNarrowing(col, q, was string, b, a sqlparse.ColumnType) []breach {
	_, bHi := integerRange(b)
	aLo, aHi := integerRange(a)
	below := ""
	switch {
	case a.Unsigned && !b.Unsigned:
		below = "0"
	case !a.Unsigned && !b.Unsigned && integerBytes[a.Name] < integerBytes[b.Name]:
		below = aLo
	}
	hiA, _ := strconv.ParseUint(aHi, 10, 64)
	hiB, _ := strconv.ParseUint(bHi, 10, 64)
	above := hiA < hiB
	var rows, where string
	switch {
	case below != "" && above:
		rows, where = "lies outside "+aLo+".."+aHi, q+" < "+below+" OR "+q+" > "+aHi
	case below == "0":
		rows, where = "is negative", q+" < 0"
	case below != "":
		rows, where = "is below "+below, q+" < "+below
	case above:
		rows, where = "is above "+aHi, q+" > "+aHi
	default:
		return nil
	}
	return []breach{{
		rows:  "rows whose " + col + " " + rows + was + " fail it, or are clamped outside strict sql_mode",
		where: where,
	}}
}

// decimalDigits is the precision and scale of a DECIMAL, with the server's
// defaults (10, 0) where they are not declared.
func decimalDigits(t sqlparse.ColumnType) (precision, scale int) {
	precision, scale = t.Length, t.Scale
	if precision < 0 {
		precision = 10
	}
	if scale < 0 {
		scale = 0
	}
	return precision, scale
}

func decimalNarrowing(col, q, was string, b, a sqlparse.ColumnType) []breach {
	bp, bs := decimalDigits(b)
	ap, as := decimalDigits(a)
	var out []breach
	if ap-as < bp-bs || a.Unsigned && !b.Unsigned {
		// The server rounds to the new scale first, as guard migrate's
		// preflight does: a value that rounds into the range fits.
		lo, hi := decimalBounds(ap, as, a.Unsigned)
		r := "ROUND(" + q + ", " + strconv.Itoa(as) + ")"
		out = append(out, breach{
			rows:  "rows whose " + col + " lies outside " + lo + ".." + hi + was + " fail it, or are clamped outside strict sql_mode",
			where: r + " < " + lo + " OR " + r + " > " + hi,
		})
	}
	if as < bs {
		out = append(out, breach{
			rows:      "rows where " + col + " has more than " + strconv.Itoa(as) + " " + plural(as, "decimal") + was + " are rounded, in strict sql_mode too",
			where:     q + " <> ROUND(" + q + ", " + strconv.Itoa(as) + ")",
			uncounted: true,
		})
	}
	return out
}

// decimalBounds are the least and greatest value of DECIMAL(p,s), as
// decimal text.
func decimalBounds(p, s int, unsigned bool) (lo, hi string) {
	hi = "0"
	if p > s {
		hi = strings.Repeat("9", p-s)
	}
	if s > 0 {
		hi += "." + strings.Repeat("9", s)
	}
	if unsigned {
		return "0", hi
	}
	return "-" + hi, hi
}

// memberNarrowing lists the ENUM or SET values b declares and a does not.
// Values are compared without case, as the default collations compare them.
func memberNarrowing(col, q, was string, b, a sqlparse.ColumnType) []breach {
	var gone []string
	for _, v := range b.Elems {
		kept := false
		for _, w := range a.Elems {
			kept = kept || strings.EqualFold(v, w)
		}
		if !kept {
			gone = append(gone, v)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	lits := make([]string, len(gone))
	for i, v := range gone {
		lits[i] = quoteString(v)
	}
	if b.Name == "enum" {
		return []breach{{
			rows:      "rows whose " + col + " is " + strings.Join(lits, " or ") + was + " fail it, or are set to '' outside strict sql_mode",
			where:     q + " IN (" + strings.Join(lits, ", ") + ")",
			uncounted: true,
		}}
	}
	conds := make([]string, len(gone))
	for i, l := range lits {
		conds[i] = "FIND_IN_SET(" + l + ", " + q + ") > 0"
	}
	return []breach{{
		rows:      "rows whose " + col + " holds " + strings.Join(lits, " or ") + was + " fail it, or lose the value outside strict sql_mode",
		where:     strings.Join(conds, " OR "),
		uncounted: true,
	}}
}

// quoteString writes s as an SQL string literal that means s whether or
// not the server treats backslashes as escapes.
func quoteString(s string) string {
	if strings.ContainsRune(s, '\\') {
		return "X'" + strings.ToUpper(hex.EncodeToString([]byte(s))) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
