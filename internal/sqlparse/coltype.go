package sqlparse

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/pingcap/tidb/pkg/parser/types"
)

// ColumnType is the type of a column definition as information_schema.COLUMNS
// describes it, without the parser's own field-type representation.
type ColumnType struct {
	// Name is the lower-case base type (DATA_TYPE): "int", "varchar", "blob".
	// Aliases are resolved the way the server resolves them: INTEGER is "int",
	// BOOL is "tinyint", REAL is "double", a CHARACTER SET binary VARCHAR is
	// "varbinary".
	Name     string
	Unsigned bool
	// Length is the declared display width or length, -1 when not given.
	Length int
	// Scale is the declared number of decimals, -1 when not given.
	Scale int
	// Elems are the values of an ENUM or SET.
	Elems []string
}

// TypeOfColumn returns the type of a column definition.
func TypeOfColumn(def *ast.ColumnDef) ColumnType {
	if def == nil || def.Tp == nil {
		return ColumnType{Length: -1, Scale: -1}
	}
	ft := def.Tp
	return ColumnType{
		Name:     strings.ToLower(types.TypeToStr(ft.GetType(), ft.GetCharset())),
		Unsigned: mysql.HasUnsignedFlag(ft.GetFlag()),
		Length:   ft.GetFlen(),
		Scale:    ft.GetDecimal(),
		Elems:    append([]string(nil), ft.GetElems()...),
	}
}

// LiteralKind says what a Literal holds.
type LiteralKind int

// Kinds of literal.
const (
	LiteralNull    LiteralKind = iota + 1
	LiteralInt                 // Text holds the decimal digits, with a leading '-' when negative
	LiteralDecimal             // Text holds the number as written: "1.50", "-0.5"
	LiteralFloat               // Text holds the number in Go's shortest 'g' form: "1000", "1e+20"
	LiteralString              // Text holds the string's value, unquoted and unescaped
	LiteralBool                // Text is "1" for TRUE, "0" for FALSE
	LiteralBits                // Bytes hold the value of a b'…' or x'…' literal
)

// Literal is a constant found in a syntax tree.
type Literal struct {
	Kind  LiteralKind
	Text  string
	Bytes []byte
}

// LiteralOf returns the constant e stands for: a value, a signed number
// (-5, +1.5), TRUE/FALSE, NULL, or one of those in parentheses. ok is false
// for anything else (names, functions, operators).
func LiteralOf(e ast.ExprNode) (lit Literal, ok bool) {
	switch x := e.(type) {
	case *ast.ParenthesesExpr:
		return LiteralOf(x.Expr)
	case *ast.UnaryOperationExpr:
		if x.Op != opcode.Minus && x.Op != opcode.Plus {
			return Literal{}, false
		}
		inner, ok := LiteralOf(x.V)
		if !ok {
			return Literal{}, false
		}
		switch inner.Kind {
		case LiteralInt, LiteralDecimal, LiteralFloat:
		default:
			return Literal{}, false
		}
		if x.Op == opcode.Minus {
			inner.Text = negate(inner.Text)
		}
		return inner, true
	case *test_driver.ValueExpr:
		return valueLiteral(x)
	}
	return Literal{}, false
}

func valueLiteral(v *test_driver.ValueExpr) (Literal, bool) {
	switch v.Kind() {
	case test_driver.KindNull:
		return Literal{Kind: LiteralNull, Text: "NULL"}, true
	case test_driver.KindInt64:
		if v.Type.GetFlag()&mysql.IsBooleanFlag != 0 {
			if v.GetInt64() > 0 {
				return Literal{Kind: LiteralBool, Text: "1"}, true
			}
			return Literal{Kind: LiteralBool, Text: "0"}, true
		}
		return Literal{Kind: LiteralInt, Text: strconv.FormatInt(v.GetInt64(), 10)}, true
	case test_driver.KindUint64:
		return Literal{Kind: LiteralInt, Text: strconv.FormatUint(v.GetUint64(), 10)}, true
	case test_driver.KindFloat32, test_driver.KindFloat64:
		return Literal{Kind: LiteralFloat, Text: strconv.FormatFloat(v.GetFloat64(), 'g', -1, 64)}, true
	case test_driver.KindMysqlDecimal:
		return Literal{Kind: LiteralDecimal, Text: v.GetMysqlDecimal().String()}, true
	case test_driver.KindString, test_driver.KindBytes:
		return Literal{Kind: LiteralString, Text: v.GetString()}, true
	case test_driver.KindBinaryLiteral:
		return Literal{Kind: LiteralBits, Bytes: append([]byte(nil), v.GetBytes()...)}, true
	}
	return Literal{}, false
}

// negate flips the sign of a number written as text.
func negate(s string) string {
	switch {
	case strings.HasPrefix(s, "-"):
		return s[1:]
	case strings.HasPrefix(s, "+"):
		return "-" + s[1:]
	}
	return "-" + s
}

// NewIntLiteral returns the literal integer v as an expression node, for
// callers that rewrite expressions (NOT col is col = 0).
func NewIntLiteral(v int64) ast.ExprNode {
	return ast.NewValueExpr(v, "", "")
}

// ColumnType reads a column type written as information_schema's
// COLUMN_TYPE writes it ("decimal(12,2) unsigned", "enum('a','b')",
// "varchar(64)"); false when it is not one type.
func (p *Parser) ColumnType(text string) (ColumnType, bool) {
	n, err := p.Parse("CREATE TABLE t (c " + text + ")")
	if err != nil {
		return ColumnType{}, false
	}
	ct, ok := n.(*ast.CreateTableStmt)
	if !ok || len(ct.Cols) != 1 || len(ct.Cols[0].Options) > 0 {
		return ColumnType{}, false
	}
	return TypeOfColumn(ct.Cols[0]), true
}

// HasEnforcedCheck reports whether a column definition carries an enforced
// column-level CHECK.
func HasEnforcedCheck(def *ast.ColumnDef) bool {
	for _, o := range def.Options {
		if o.Tp == ast.ColumnOptionCheck && o.Enforced {
			return true
		}
	}
	return false
}
