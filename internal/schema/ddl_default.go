package schema

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// CanonicalDefault returns a column default, given as SQL text (as
// information_schema.COLUMNS.COLUMN_DEFAULT shows it on MariaDB), in the form
// FromDDL gives Column.Default: "NULL", numbers as printed, strings
// single-quoted, CURRENT_TIMESTAMP and its synonyms upper case without
// parentheses, other expressions restored canonically.
func CanonicalDefault(exprSQL string) (string, error) {
	e, err := parseExpr(sqlparse.NewParser(), exprSQL)
	if err != nil {
		return "", fmt.Errorf("column default: %w", err)
	}
	return defaultText(e, sqlparse.ColumnType{Length: -1, Scale: -1}), nil
}

// defaultText is the canonical text of a column default. Constants are
// converted to the column's type the way the server stores them: DEFAULT '0'
// on an INT column is 0, DEFAULT 0 on a DECIMAL(10,2) is 0.00.
func defaultText(e sqlparse.ExprNode, ct sqlparse.ColumnType) string {
	e = unparen(e)
	if lit, ok := sqlparse.LiteralOf(e); ok {
		return literalDefault(lit, ct)
	}
	if f, ok := e.(*sqlparse.FuncCallExpr); ok {
		switch f.FnName.L {
		case "current_timestamp", "now", "localtime", "localtimestamp":
			if len(f.Args) == 1 {
				if lit, ok := sqlparse.LiteralOf(f.Args[0]); ok && lit.Kind == sqlparse.LiteralInt && lit.Text != "0" {
					return "CURRENT_TIMESTAMP(" + lit.Text + ")"
				}
			}
			return "CURRENT_TIMESTAMP"
		case "curdate", "current_date":
			// MariaDB stores both spellings as curdate().
			return "CURDATE()"
		}
	}
	return sqlparse.Restore(e)
}

// typeClass groups column types by how the server converts a default.
type typeClass int

const (
	classOther typeClass = iota // dates, times, unknown: kept as written
	classInteger
	classDecimal
	classFloat
	classBit
	classString
)

func classOf(ct sqlparse.ColumnType) typeClass {
	switch ct.Name {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "year":
		return classInteger
	case "decimal", "numeric":
		return classDecimal
	case "float", "double":
		return classFloat
	case "bit":
		return classBit
	case "char", "varchar", "binary", "varbinary", "tinytext", "text", "mediumtext", "longtext",
		"tinyblob", "blob", "mediumblob", "longblob", "enum", "set", "json":
		return classString
	}
	return classOther
}

func literalDefault(lit sqlparse.Literal, ct sqlparse.ColumnType) string {
	if lit.Kind == sqlparse.LiteralNull {
		return "NULL"
	}
	class := classOf(ct)
	if class == classString {
		switch lit.Kind {
		case sqlparse.LiteralString:
			return quote(lit.Text)
		case sqlparse.LiteralBits:
			return quote(string(lit.Bytes))
		}
		return quote(plainNumber(lit))
	}
	if class == classBit {
		if v, ok := literalInt(lit); ok && v.Sign() >= 0 {
			return "b'" + v.Text(2) + "'"
		}
	}
	if class == classInteger || class == classDecimal || class == classFloat {
		if v, ok := literalRat(lit); ok {
			switch class {
			case classInteger:
				return v.FloatString(0)
			case classDecimal:
				return v.FloatString(max(ct.Scale, 0))
			default:
				if ct.Scale >= 0 {
					return v.FloatString(ct.Scale)
				}
				f, _ := v.Float64()
				bits := 64
				if ct.Name == "float" {
					bits = 32
				}
				return strings.Replace(strconv.FormatFloat(f, 'g', -1, bits), "e+", "e", 1)
			}
		}
	}
	switch lit.Kind {
	case sqlparse.LiteralString:
		return quote(lit.Text)
	case sqlparse.LiteralBits:
		v := new(big.Int).SetBytes(lit.Bytes)
		return "b'" + v.Text(2) + "'"
	}
	return plainNumber(lit)
}

// plainNumber is the text of a numeric or boolean literal.
func plainNumber(lit sqlparse.Literal) string {
	if lit.Kind == sqlparse.LiteralBits {
		return new(big.Int).SetBytes(lit.Bytes).String()
	}
	return strings.TrimPrefix(lit.Text, "+")
}

// literalRat is the numeric value of a literal; a string counts when it
// holds a number, as the server converts it.
func literalRat(lit sqlparse.Literal) (*big.Rat, bool) {
	switch lit.Kind {
	case sqlparse.LiteralInt, sqlparse.LiteralDecimal, sqlparse.LiteralFloat, sqlparse.LiteralBool:
		return new(big.Rat).SetString(lit.Text)
	case sqlparse.LiteralString:
		s := strings.TrimSpace(lit.Text)
		if !isNumberText(s) {
			return nil, false
		}
		if strings.ContainsAny(s, "eE") {
			// Through float64: an exponent such as 1e999999999 would make
			// big.Rat compute a number of a billion digits.
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, false
			}
			return new(big.Rat).SetFloat64(f), true
		}
		return new(big.Rat).SetString(s)
	case sqlparse.LiteralBits:
		return new(big.Rat).SetInt(new(big.Int).SetBytes(lit.Bytes)), true
	}
	return nil, false
}

// isNumberText reports whether s is a plain decimal number:
// [+-]digits[.digits][e[+-]digits], the strings the server converts whole.
func isNumberText(s string) bool {
	if len(s) == 0 || len(s) > 100 {
		return false
	}
	i := 0
	if s[i] == '+' || s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// literalInt is the integer value of a literal, when it has one.
func literalInt(lit sqlparse.Literal) (*big.Int, bool) {
	if lit.Kind == sqlparse.LiteralBits {
		return new(big.Int).SetBytes(lit.Bytes), true
	}
	r, ok := literalRat(lit)
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
}

// quote writes s as a single-quoted SQL string.
func quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
