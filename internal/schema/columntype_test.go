package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignoreColumnType leaves Column.ColumnType out of the comparisons of tests
// about other parts of the model; TestColumnType covers it, and the
// conformance tests compare it between the two builders.
var ignoreColumnType = cmpopts.IgnoreFields(Column{}, "ColumnType")

func TestColumnType(t *testing.T) {
	tests := []struct {
		decl, want string
	}{
		{"INT", "int"},
		{"int(11)", "int"},
		{"INTEGER UNSIGNED", "int unsigned"},
		{"bigint(20) unsigned", "bigint unsigned"},
		{"SERIAL", "bigint unsigned"},
		{"BOOL", "tinyint"},
		{"tinyint(1)", "tinyint"},
		{"mediumint(8) unsigned zerofill", "mediumint unsigned"},
		{"DECIMAL", "decimal(10,0)"},
		{"DECIMAL(12)", "decimal(12,0)"},
		{"NUMERIC(5,1)", "decimal(5,1)"},
		{"decimal(12,2) unsigned", "decimal(12,2) unsigned"},
		{"FLOAT", "float"},
		{"float(10,2)", "float(10,2)"},
		{"FLOAT(30)", "double"},
		{"REAL", "double"},
		{"double(8,3) UNSIGNED", "double(8,3) unsigned"},
		{"CHAR", "char(1)"},
		{"char(3)", "char(3)"},
		{"VARCHAR(64)", "varchar(64)"},
		{"varchar(64) CHARACTER SET latin1", "varchar(64)"},
		{"BINARY", "binary(1)"},
		{"VARBINARY(16)", "varbinary(16)"},
		{"BIT", "bit(1)"},
		{"YEAR", "year"},
		{"year(4)", "year"},
		{"DATETIME", "datetime"},
		{"datetime(3)", "datetime(3)"},
		{"TIMESTAMP(6)", "timestamp(6)"},
		{"TIME", "time"},
		{"DATE", "date"},
		{"ENUM('NEW','PAID')", "enum('NEW','PAID')"},
		{"enum('it''s','x')", "enum('it''s','x')"},
		{"SET('a','b')", "set('a','b')"},
		{"TEXT", "text"},
		{"JSON", "longtext"},
	}
	for _, tt := range tests {
		t.Run(tt.decl, func(t *testing.T) {
			s, errs := FromDDL([]DDL{{SQL: "CREATE TABLE t (c " + tt.decl + ")"}})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := s.Table("t").Column("c").ColumnType; got != tt.want {
				t.Errorf("ColumnType of %s = %q, want %q", tt.decl, got, tt.want)
			}
			// Declaring a column with its ColumnType gives it the same type.
			again, errs := FromDDL([]DDL{{SQL: "CREATE TABLE t (c " + tt.want + ")"}})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := again.Table("t").Column("c").ColumnType; got != tt.want {
				t.Errorf("ColumnType of %s = %q, want it unchanged", tt.want, got)
			}
		})
	}
}

// TestColumnTypeFromRows checks that COLUMN_TYPE as MariaDB and MySQL 8 print
// it gives the ColumnType FromDDL gives the declaration.
func TestColumnTypeFromRows(t *testing.T) {
	tests := []struct {
		version, columnType, dataType, want string
	}{
		{"10.11.6-MariaDB", "int(11)", "int", "int"},
		{"8.0.36", "int", "int", "int"},
		{"10.11.6-MariaDB", "bigint(20) unsigned", "bigint", "bigint unsigned"},
		{"8.0.36", "bigint unsigned", "bigint", "bigint unsigned"},
		{"8.0.36", "tinyint(1)", "tinyint", "tinyint"},
		{"10.11.6-MariaDB", "decimal(12,2)", "decimal", "decimal(12,2)"},
		{"10.11.6-MariaDB", "varchar(64)", "varchar", "varchar(64)"},
		{"10.11.6-MariaDB", "enum('NEW','PAID')", "enum", "enum('NEW','PAID')"},
		{"10.11.6-MariaDB", "year(4)", "year", "year"},
		{"10.11.6-MariaDB", "datetime(3)", "datetime", "datetime(3)"},
		{"10.11.6-MariaDB", "longtext", "longtext", "longtext"},
		{"10.11.6-MariaDB", "uuid", "uuid", "uuid"},
	}
	for _, tt := range tests {
		rows := &InfoRows{Version: tt.version, Database: "d",
			Tables:  []TableRow{{Name: "t"}},
			Columns: []ColumnRow{{Table: "t", Name: "c", Position: 1, ColumnType: tt.columnType, DataType: tt.dataType, IsNullable: "NO"}},
		}
		s, _, err := FromRows(rows)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Table("t").Column("c").ColumnType; got != tt.want {
			t.Errorf("%s COLUMN_TYPE %q: ColumnType = %q, want %q", tt.version, tt.columnType, got, tt.want)
		}
	}
}

func TestSQLType(t *testing.T) {
	tests := []struct {
		col  Column
		want string
	}{
		{Column{Type: "decimal", ColumnType: "decimal(12,2) unsigned", Unsigned: true}, "DECIMAL(12,2) UNSIGNED"},
		{Column{Type: "int", ColumnType: "int"}, "INT"},
		{Column{Type: "varchar", ColumnType: "varchar(64)"}, "VARCHAR(64)"},
		{Column{Type: "enum", ColumnType: "enum('new','Paid')"}, "ENUM('new','Paid')"},
		// A model built by hand without ColumnType keeps what it has.
		{Column{Type: "bigint", Unsigned: true}, "BIGINT UNSIGNED"},
	}
	for _, tt := range tests {
		if got := tt.col.SQLType(); got != tt.want {
			t.Errorf("%+v: SQLType %q, want %q", tt.col, got, tt.want)
		}
	}
}
