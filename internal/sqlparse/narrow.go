package sqlparse

import (
	"fmt"
	"strings"
)

// Narrowing says what values of type from a column of type to can no
// longer hold: "" when every value of from fits (a widening, or the same
// type), else why not ("VARCHAR(64) to VARCHAR(32): values longer than 32
// characters"). A migration changing a column this way fails or truncates
// depending on the rows, and an old release's writes of such values fail.
func Narrowing(from, to ColumnType) string {
	f, t := normal(from), normal(to)
	change := from.Text() + " to " + to.Text()
	switch {
	case f.Name == t.Name && f.Length == t.Length && f.Scale == t.Scale && f.Unsigned == t.Unsigned && sameElems(f.Elems, t.Elems):
		return ""
	case intBytes[f.Name] > 0 && intBytes[t.Name] > 0:
		return intNarrowing(f, t, change)
	case isDecimal(f.Name) && isDecimal(t.Name):
		switch {
		case t.Length-t.Scale < f.Length-f.Scale:
			return fmt.Sprintf("%s: values with more than %d digits before the point", change, t.Length-t.Scale)
		case t.Scale < f.Scale:
			return fmt.Sprintf("%s: values are rounded to %d decimals", change, t.Scale)
		case t.Unsigned && !f.Unsigned:
			return change + ": negative values"
		}
		return ""
	case intBytes[f.Name] > 0 && isDecimal(t.Name):
		if t.Length-t.Scale < intDigits(f) || (t.Unsigned && !f.Unsigned) {
			return fmt.Sprintf("%s: integers with more than %d digits or below zero", change, t.Length-t.Scale)
		}
		return ""
	case f.Name == "double" && t.Name == "float":
		return change + ": values lose precision"
	case f.Name == "float" && t.Name == "double":
		return ""
	case charLimit(f) > 0 && charLimit(t) > 0 && binaryType(f.Name) == binaryType(t.Name):
		if charLimit(t) < charLimit(f) {
			return fmt.Sprintf("%s: values longer than %d %s", change, charLimit(t), unit(t.Name))
		}
		return ""
	case (f.Name == "enum" && t.Name == "enum") || (f.Name == "set" && t.Name == "set"):
		var gone []string
		for _, e := range f.Elems {
			if !containsFold(t.Elems, e) {
				gone = append(gone, "'"+e+"'")
			}
		}
		if len(gone) > 0 {
			return change + ": the values " + strings.Join(gone, ", ") + " are no longer allowed"
		}
		return ""
	case temporal[f.Name] && f.Name == t.Name:
		if t.Scale < f.Scale {
			return fmt.Sprintf("%s: fractional seconds are rounded to %d digits", change, max(t.Scale, 0))
		}
		return ""
	case charLimit(t) > 0 && binaryType(t.Name) && charLimit(f) > 0:
		// Text kept as bytes: every value fits when the bytes do (four a
		// character at most).
		if charLimit(f) > 0 && unit(f.Name) == "characters" && charLimit(t) < 4*charLimit(f) ||
			unit(f.Name) == "bytes" && charLimit(t) < charLimit(f) {
			return fmt.Sprintf("%s: values longer than %d bytes", change, charLimit(t))
		}
		return ""
	case charLimit(t) > 0 && !binaryType(t.Name) && (intBytes[f.Name] > 0 || isDecimal(f.Name) || temporal[f.Name] || f.Name == "date" || f.Name == "year"):
		// A number or a date written as text.
		if charLimit(t) < textWidth(f) {
			return fmt.Sprintf("%s: values longer than %d characters", change, charLimit(t))
		}
		return ""
	}
	return change + ": a value of the old type may not convert"
}

// textWidth is how many characters the longest value of a number or date
// type takes as text.
func textWidth(c ColumnType) int {
	switch {
	case intBytes[c.Name] > 0:
		return intDigits(c) + 1
	case isDecimal(c.Name):
		return c.Length + 2
	case c.Name == "date":
		return 10
	case c.Name == "year":
		return 4
	case c.Name == "time":
		return 10 + max(c.Scale, 0) + 1
	}
	return 19 + max(c.Scale, 0) + 1 // datetime, timestamp
}

// Text writes the type as a declaration would: "VARCHAR(32)", "INT UNSIGNED".
func (c ColumnType) Text() string {
	n := normal(c)
	s := strings.ToUpper(n.Name)
	switch {
	case isDecimal(n.Name):
		s += fmt.Sprintf("(%d,%d)", n.Length, n.Scale)
	case n.Name == "enum" || n.Name == "set":
		s += "(" + strings.Join(quoteAll(n.Elems), ",") + ")"
	case charLimit(n) > 0 && !strings.HasSuffix(n.Name, "text") && !strings.HasSuffix(n.Name, "blob"):
		s += fmt.Sprintf("(%d)", n.Length)
	case temporal[n.Name] && n.Scale > 0:
		s += fmt.Sprintf("(%d)", n.Scale)
	}
	if n.Unsigned {
		s += " UNSIGNED"
	}
	return s
}

var intBytes = map[string]int{"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "integer": 4, "bigint": 8}

var temporal = map[string]bool{"datetime": true, "timestamp": true, "time": true}

// textLimits are the byte limits of the TEXT and BLOB types.
var textLimits = map[string]int{
	"tinytext": 255, "text": 65535, "mediumtext": 16777215, "longtext": 4294967295,
	"tinyblob": 255, "blob": 65535, "mediumblob": 16777215, "longblob": 4294967295,
}

// normal fills in the lengths a declaration leaves to the server.
func normal(c ColumnType) ColumnType {
	if c.Name == "integer" {
		c.Name = "int"
	}
	if c.Name == "numeric" {
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

func intNarrowing(f, t ColumnType, change string) string {
	fb, tb := intBytes[f.Name], intBytes[t.Name]
	switch {
	case t.Unsigned && !f.Unsigned:
		return change + ": negative values"
	case tb < fb:
		return change + ": values beyond the smaller range"
	case !t.Unsigned && f.Unsigned && tb == fb:
		return change + ": values above the signed maximum"
	}
	return ""
}

// intDigits is how many decimal digits the largest value of an integer
// type has.
func intDigits(c ColumnType) int {
	return map[int]int{1: 3, 2: 5, 3: 8, 4: 10, 8: 20}[intBytes[c.Name]]
}

func isDecimal(name string) bool { return name == "decimal" || name == "numeric" }

// charLimit is how long a value of a string type may be: characters for
// CHAR and VARCHAR, bytes for the TEXT and BLOB types; 0 for any other.
func charLimit(c ColumnType) int {
	switch c.Name {
	case "char", "varchar", "binary", "varbinary":
		return max(c.Length, 0)
	}
	return textLimits[c.Name]
}

func binaryType(name string) bool {
	return name == "binary" || name == "varbinary" || strings.HasSuffix(name, "blob")
}

func unit(name string) string {
	if binaryType(name) || strings.HasSuffix(name, "text") {
		return "bytes"
	}
	return "characters"
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

func quoteAll(es []string) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = "'" + strings.ReplaceAll(e, "'", "''") + "'"
	}
	return out
}
