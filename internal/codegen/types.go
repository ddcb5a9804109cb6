package codegen

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/guard-sql/guard/internal/schema"
)

// goType is how a column of one SQL base type is held in Go.
type goType struct {
	// plain is the type of a NOT NULL column; null the type of a nullable
	// one (the same when Go's zero value cannot be confused, as for []byte).
	plain, null string
	// time marks types from package time.
	time bool
}

// goTypes maps the lower-case base types of schema.Column to Go. Every
// integer is int64, as are the ids and amounts of the generated API; DECIMAL
// is a string so that no digit is lost; dates and times need the DSN's
// parseTime=true.
var goTypes = map[string]goType{
	"tinyint": {plain: "int64", null: "sql.NullInt64"}, "smallint": {plain: "int64", null: "sql.NullInt64"},
	"mediumint": {plain: "int64", null: "sql.NullInt64"}, "int": {plain: "int64", null: "sql.NullInt64"},
	"integer": {plain: "int64", null: "sql.NullInt64"}, "bigint": {plain: "int64", null: "sql.NullInt64"},
	"year": {plain: "int64", null: "sql.NullInt64"},
	"bool": {plain: "bool", null: "sql.NullBool"}, "boolean": {plain: "bool", null: "sql.NullBool"},
	"float": {plain: "float64", null: "sql.NullFloat64"}, "double": {plain: "float64", null: "sql.NullFloat64"},
	"real":    {plain: "float64", null: "sql.NullFloat64"},
	"decimal": {plain: "string", null: "sql.NullString"}, "numeric": {plain: "string", null: "sql.NullString"},
	"char": {plain: "string", null: "sql.NullString"}, "varchar": {plain: "string", null: "sql.NullString"},
	"tinytext": {plain: "string", null: "sql.NullString"}, "text": {plain: "string", null: "sql.NullString"},
	"mediumtext": {plain: "string", null: "sql.NullString"}, "longtext": {plain: "string", null: "sql.NullString"},
	"enum": {plain: "string", null: "sql.NullString"}, "set": {plain: "string", null: "sql.NullString"},
	"json": {plain: "string", null: "sql.NullString"}, "time": {plain: "string", null: "sql.NullString"},
	"date": {plain: "time.Time", null: "sql.NullTime", time: true}, "datetime": {plain: "time.Time", null: "sql.NullTime", time: true},
	"timestamp": {plain: "time.Time", null: "sql.NullTime", time: true},
	"binary":    {plain: "[]byte", null: "[]byte"}, "varbinary": {plain: "[]byte", null: "[]byte"},
	"tinyblob": {plain: "[]byte", null: "[]byte"}, "blob": {plain: "[]byte", null: "[]byte"},
	"mediumblob": {plain: "[]byte", null: "[]byte"}, "longblob": {plain: "[]byte", null: "[]byte"},
	"bit": {plain: "[]byte", null: "[]byte"},
}

// goTypeOf returns the Go type of column c and whether it comes from package
// time.
func goTypeOf(table string, c *schema.Column) (string, bool, error) {
	gt, ok := goTypes[c.Type]
	if !ok {
		return "", false, fmt.Errorf("table %s: column %s has type %q, which guard gen does not map to Go", table, c.Name, c.Type)
	}
	if c.Nullable {
		return gt.null, gt.time, nil
	}
	return gt.plain, gt.time, nil
}

// sqlTypeOf describes column c for the comment of its field.
func sqlTypeOf(c *schema.Column) string {
	parts := []string{c.Type}
	if c.Unsigned {
		parts = append(parts, "unsigned")
	}
	if c.Nullable {
		parts = append(parts, "NULL")
	} else {
		parts = append(parts, "NOT NULL")
	}
	if c.AutoIncrement {
		parts = append(parts, "AUTO_INCREMENT")
	}
	if c.Default != nil {
		parts = append(parts, "DEFAULT "+*c.Default)
	}
	// A default may hold newlines; the description ends up in a comment.
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.Join(parts, " "))
}

// serverDefault reports whether the server computes the default of c
// (CURRENT_TIMESTAMP, NOW(), UUID()…): Insert leaves such columns out, since
// Go's zero value would override them (and a zero date fails in strict mode).
func serverDefault(c *schema.Column) bool {
	if c.Default == nil {
		return false
	}
	d := strings.ToUpper(strings.TrimSpace(*c.Default))
	if d == "" || d == "NULL" || strings.HasPrefix(d, "'") || strings.HasPrefix(d, "B'") || strings.HasPrefix(d, "X'") {
		return false
	}
	return !strings.ContainsAny(d[:1], "0123456789-+.")
}
