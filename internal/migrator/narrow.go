package migrator

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// KindFits is the check that the existing values of a column fit the
// narrower type a MODIFY or CHANGE gives it: a shorter CHAR/VARCHAR, a
// smaller integer, signed to unsigned, a DECIMAL with fewer integer digits.
// Under guard's strict sql_mode a value that does not fit makes the ALTER
// fail (error 1265 or 1264) after copying part of the table, so preflight
// counts those rows first. It is a probe only: nothing is verified after.
const KindFits = "fits"

// intRanges are the bounds of the integer types, signed then unsigned.
var intRanges = map[string][4]string{
	"tinyint":   {"-128", "127", "0", "255"},
	"smallint":  {"-32768", "32767", "0", "65535"},
	"mediumint": {"-8388608", "8388607", "0", "16777215"},
	"int":       {"-2147483648", "2147483647", "0", "4294967295"},
	"bigint":    {"-9223372036854775808", "9223372036854775807", "0", "18446744073709551615"},
}

// textBytes are the byte limits of the TEXT and BLOB types.
var textBytes = map[string]int64{
	"tinytext": 255, "text": 65535, "mediumtext": 16777215, "longtext": 4294967295,
	"tinyblob": 255, "blob": 65535, "mediumblob": 16777215, "longblob": 4294967295,
}

var charTypes = map[string]bool{"char": true, "varchar": true}
var byteTypes = map[string]bool{"binary": true, "varbinary": true}

// numericTypes are the live types a numeric narrowing is checked from.
var numericTypes = map[string]bool{"tinyint": true, "smallint": true, "mediumint": true, "int": true, "bigint": true,
	"decimal": true, "float": true, "double": true}

// narrowing returns the condition that holds for the rows of live column
// col whose value does not fit now, and whether now is narrower at all.
func narrowing(col *schema.Column, now sqlparse.ColumnType) (string, bool) {
	was := parseLiveType(col)
	c := quote(col.Name)
	switch {
	case charTypes[now.Name] && now.Length >= 0:
		if !(charTypes[was.Name] && was.Length > now.Length) && textBytes[was.Name] == 0 && was.Name != "enum" && was.Name != "set" {
			return "", false
		}
		return fmt.Sprintf("CHAR_LENGTH(%s) > %d", c, now.Length), true
	case byteTypes[now.Name] && now.Length >= 0:
		if !((byteTypes[was.Name] || charTypes[was.Name]) && was.Length > now.Length) && textBytes[was.Name] == 0 {
			return "", false
		}
		return fmt.Sprintf("LENGTH(%s) > %d", c, now.Length), true
	case textBytes[now.Name] > 0:
		limit := textBytes[now.Name]
		if tb := textBytes[was.Name]; tb > 0 && tb <= limit || charTypes[was.Name] && int64(was.Length)*4 <= limit || byteTypes[was.Name] && int64(was.Length) <= limit {
			return "", false
		}
		if !(textBytes[was.Name] > 0 || charTypes[was.Name] || byteTypes[was.Name]) {
			return "", false
		}
		return fmt.Sprintf("LENGTH(%s) > %d", c, limit), true
	case intRanges[now.Name] != [4]string{}:
		if !numericTypes[was.Name] {
			return "", false
		}
		lo, hi := bounds(now)
		if _, isInt := intRanges[was.Name]; isInt {
			wlo, whi := bounds(was)
			if !less(wlo, lo) && !less(hi, whi) {
				return "", false
			}
		}
		return fmt.Sprintf("%s < %s OR %s > %s", c, lo, c, hi), true
	case now.Name == "decimal" && now.Length > 0:
		if !numericTypes[was.Name] {
			return "", false
		}
		scale := max(now.Scale, 0)
		lo, hi := decimalBounds(now.Length, scale, now.Unsigned)
		switch {
		case intRanges[was.Name] != [4]string{}:
			wlo, whi := bounds(was)
			if !less(wlo, lo) && !less(hi, whi) {
				return "", false
			}
		case was.Name == "decimal" && was.Length > 0:
			wlo, whi := decimalBounds(was.Length, max(was.Scale, 0), was.Unsigned)
			if !less(wlo, lo) && !less(hi, whi) {
				return "", false
			}
		}
		// The server rounds to the new scale first: a value that rounds
		// into range fits.
		r := fmt.Sprintf("ROUND(%s, %d)", c, scale)
		return fmt.Sprintf("%s < %s OR %s > %s", r, lo, r, hi), true
	}
	return "", false
}

// bounds are the least and greatest value of an integer type.
func bounds(t sqlparse.ColumnType) (string, string) {
	r := intRanges[t.Name]
	if t.Unsigned {
		return r[2], r[3]
	}
	return r[0], r[1]
}

// decimalBounds are the least and greatest value of DECIMAL(p,s).
func decimalBounds(p, s int, unsigned bool) (string, string) {
	hi := strings.Repeat("9", max(p-s, 1))
	if p-s <= 0 {
		hi = "0"
	}
	if s > 0 {
		hi += "." + strings.Repeat("9", s)
	}
	if unsigned {
		return "0", hi
	}
	return "-" + hi, hi
}

// less compares two decimal numbers written as text.
func less(a, b string) bool {
	x, _ := new(big.Rat).SetString(a)
	y, _ := new(big.Rat).SetString(b)
	if x == nil || y == nil {
		return false
	}
	return x.Cmp(y) < 0
}
