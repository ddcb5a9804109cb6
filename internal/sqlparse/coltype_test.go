package sqlparse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTypeOfColumn(t *testing.T) {
	tests := []struct {
		decl string
		want ColumnType
	}{
		{"INT", ColumnType{Name: "int", Length: -1, Scale: -1}},
		{"INTEGER UNSIGNED", ColumnType{Name: "int", Unsigned: true, Length: -1, Scale: -1}},
		{"BIGINT(20) UNSIGNED ZEROFILL", ColumnType{Name: "bigint", Unsigned: true, Length: 20, Scale: -1}},
		{"BOOL", ColumnType{Name: "tinyint", Length: 1, Scale: -1}},
		{"DECIMAL(12,2)", ColumnType{Name: "decimal", Length: 12, Scale: 2}},
		{"NUMERIC", ColumnType{Name: "decimal", Length: -1, Scale: -1}},
		{"REAL", ColumnType{Name: "double", Length: -1, Scale: -1}},
		{"FLOAT(10,2)", ColumnType{Name: "float", Length: 10, Scale: 2}},
		{"VARCHAR(32)", ColumnType{Name: "varchar", Length: 32, Scale: -1}},
		{"VARCHAR(32) BINARY", ColumnType{Name: "varchar", Length: 32, Scale: -1}},
		{"VARCHAR(3) CHARACTER SET binary", ColumnType{Name: "varbinary", Length: 3, Scale: -1}},
		{"VARBINARY(8)", ColumnType{Name: "varbinary", Length: 8, Scale: -1}},
		{"TEXT", ColumnType{Name: "text", Length: -1, Scale: -1}},
		{"BLOB", ColumnType{Name: "blob", Length: -1, Scale: -1}},
		{"LONGBLOB", ColumnType{Name: "longblob", Length: -1, Scale: -1}},
		{"ENUM('NEW','PAID')", ColumnType{Name: "enum", Length: 4, Scale: -1, Elems: []string{"NEW", "PAID"}}},
		{"SET('a','b')", ColumnType{Name: "set", Length: 3, Scale: -1, Elems: []string{"a", "b"}}},
		{"JSON", ColumnType{Name: "json", Length: -1, Scale: 0}},
		{"TIMESTAMP(3)", ColumnType{Name: "timestamp", Length: 23, Scale: 3}},
		{"BIT(4)", ColumnType{Name: "bit", Length: 4, Scale: -1}},
	}
	p := NewParser()
	for _, tt := range tests {
		n, err := p.Parse("CREATE TABLE t (c " + tt.decl + ")")
		if err != nil {
			t.Fatalf("%s: %v", tt.decl, err)
		}
		got := TypeOfColumn(n.(*CreateTableStmt).Cols[0])
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("TypeOfColumn(%s) (-want +got):\n%s", tt.decl, diff)
		}
	}
	if got := TypeOfColumn(nil); got.Name != "" || got.Length != -1 {
		t.Errorf("TypeOfColumn(nil) = %+v", got)
	}
}

func TestLiteralOf(t *testing.T) {
	tests := []struct {
		expr string
		want Literal
		ok   bool
	}{
		{"0", Literal{Kind: LiteralInt, Text: "0"}, true},
		{"-5", Literal{Kind: LiteralInt, Text: "-5"}, true},
		{"- -5", Literal{Kind: LiteralInt, Text: "5"}, true},
		{"+7", Literal{Kind: LiteralInt, Text: "7"}, true},
		{"18446744073709551615", Literal{Kind: LiteralInt, Text: "18446744073709551615"}, true},
		{"1.50", Literal{Kind: LiteralDecimal, Text: "1.50"}, true},
		{"-0.5", Literal{Kind: LiteralDecimal, Text: "-0.5"}, true},
		{"1e3", Literal{Kind: LiteralFloat, Text: "1000"}, true},
		{"((2))", Literal{Kind: LiteralInt, Text: "2"}, true},
		{"'it''s'", Literal{Kind: LiteralString, Text: "it's"}, true},
		{"_utf8mb4'x'", Literal{Kind: LiteralString, Text: "x"}, true},
		{"TRUE", Literal{Kind: LiteralBool, Text: "1"}, true},
		{"false", Literal{Kind: LiteralBool, Text: "0"}, true},
		{"NULL", Literal{Kind: LiteralNull, Text: "NULL"}, true},
		{"b'101'", Literal{Kind: LiteralBits, Bytes: []byte{5}}, true},
		{"x'4142'", Literal{Kind: LiteralBits, Bytes: []byte("AB")}, true},
		{"-'a'", Literal{}, false},
		{"qty", Literal{}, false},
		{"1 + 1", Literal{}, false},
		{"NOW()", Literal{}, false},
		{"NOT 1", Literal{}, false},
	}
	p := NewParser()
	for _, tt := range tests {
		n, err := p.Parse("SELECT " + tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		got, ok := LiteralOf(n.(*SelectStmt).Fields.Fields[0].Expr)
		if ok != tt.ok {
			t.Errorf("LiteralOf(%s) ok = %v, want %v", tt.expr, ok, tt.ok)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("LiteralOf(%s) (-want +got):\n%s", tt.expr, diff)
		}
	}
}

func TestNewIntLiteral(t *testing.T) {
	got, ok := LiteralOf(NewIntLiteral(-3))
	if !ok || got.Kind != LiteralInt || got.Text != "-3" {
		t.Errorf("LiteralOf(NewIntLiteral(-3)) = %+v, %v", got, ok)
	}
	if s := Restore(NewIntLiteral(0)); s != "0" {
		t.Errorf("Restore(NewIntLiteral(0)) = %q", s)
	}
}
