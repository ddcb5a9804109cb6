package schema

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// columnTypeText is the full type of a column in the form both builders agree
// on: information_schema's COLUMN_TYPE, lower case, with the lengths and
// scales the server fills in when a declaration leaves them out (DECIMAL is
// decimal(10,0), CHAR is char(1)), and without the display width of integer
// and YEAR types, which MariaDB prints and MySQL 8 does not and which changes
// nothing a column stores. base is the column's base type (Column.Type) and
// ct its parsed declaration. A DDL statement that declares the column with
// this text gives it the same type again: `guard plan` relies on that to
// MODIFY a column without changing it.
func columnTypeText(base string, ct sqlparse.ColumnType) string {
	var b strings.Builder
	b.WriteString(base)
	orDefault := func(n, def int) int {
		if n < 0 {
			return def
		}
		return n
	}
	switch base {
	case "decimal", "numeric":
		b.WriteString("(" + strconv.Itoa(orDefault(ct.Length, 10)) + "," + strconv.Itoa(orDefault(ct.Scale, 0)) + ")")
	case "float", "double":
		if ct.Length > 0 && ct.Scale >= 0 {
			b.WriteString("(" + strconv.Itoa(ct.Length) + "," + strconv.Itoa(ct.Scale) + ")")
		}
	case "char", "binary", "bit":
		b.WriteString("(" + strconv.Itoa(orDefault(ct.Length, 1)) + ")")
	case "varchar", "varbinary":
		if ct.Length >= 0 {
			b.WriteString("(" + strconv.Itoa(ct.Length) + ")")
		}
	case "datetime", "timestamp", "time":
		if ct.Scale > 0 {
			b.WriteString("(" + strconv.Itoa(ct.Scale) + ")")
		}
	case "enum", "set":
		b.WriteByte('(')
		for i, e := range ct.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("'" + strings.ReplaceAll(e, "'", "''") + "'")
		}
		b.WriteByte(')')
	}
	if ct.Unsigned && isNumericType(base) {
		b.WriteString(" unsigned")
	}
	return b.String()
}

// isNumericType reports whether a base type takes UNSIGNED.
func isNumericType(base string) bool {
	switch base {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint",
		"decimal", "numeric", "float", "double":
		return true
	}
	return false
}

// SQLType is the full type a declaration must repeat to keep the column's
// type, keywords in upper case: "DECIMAL(12,2) UNSIGNED", "VARCHAR(64)",
// "ENUM('NEW','PAID')". A MODIFY with the base type alone would change the
// column (DECIMAL is DECIMAL(10,0) and rounds money). Both builders fill
// ColumnType; a model built by hand without it falls back to the base type.
// The character set and collation are not part of it: the model does not
// record them.
func (c *Column) SQLType() string {
	typ := c.ColumnType
	if typ == "" {
		typ = c.Type
		if c.Unsigned {
			typ += " unsigned"
		}
	}
	unsigned := ""
	if rest, ok := strings.CutSuffix(typ, " unsigned"); ok {
		typ, unsigned = rest, " UNSIGNED"
	}
	// The name is upper case; lengths and ENUM values keep their case.
	end := 0
	for end < len(typ) && (typ[end] >= 'a' && typ[end] <= 'z' || typ[end] >= 'A' && typ[end] <= 'Z') {
		end++
	}
	return strings.ToUpper(typ[:end]) + typ[end:] + unsigned
}
