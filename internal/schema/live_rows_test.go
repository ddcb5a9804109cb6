package schema

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	versionMariaDB = "10.11.19-MariaDB-0+deb12u1"
	versionMySQL   = "8.0.36"
)

func liveStr(s string) *string { return &s }

// TestFromRowsDefaults reads COLUMN_DEFAULT the way each flavor writes it
// and expects FromDDL's canonical text.
func TestFromRowsDefaults(t *testing.T) {
	tests := []struct {
		name       string
		version    string
		columnType string
		dataType   string
		nullable   bool
		def        *string
		extra      string
		want       *string
	}{
		{"mariadb number", versionMariaDB, "int(11)", "int", false, liveStr("0"), "", liveStr("0")},
		{"mariadb string", versionMariaDB, "enum('NEW','PAID')", "enum", false, liveStr("'NEW'"), "", liveStr("'NEW'")},
		{"mariadb quote in string", versionMariaDB, "varchar(10)", "varchar", true, liveStr("'it''s'"), "", liveStr("'it''s'")},
		{"mariadb the string NULL", versionMariaDB, "varchar(10)", "varchar", true, liveStr("'NULL'"), "", liveStr("'NULL'")},
		{"mariadb NULL default", versionMariaDB, "varchar(10)", "varchar", true, liveStr("NULL"), "", liveStr("NULL")},
		{"mariadb no default, not null", versionMariaDB, "varchar(10)", "varchar", false, nil, "", nil},
		{"mariadb current_timestamp()", versionMariaDB, "timestamp", "timestamp", false, liveStr("current_timestamp()"), "on update current_timestamp()", liveStr("CURRENT_TIMESTAMP")},
		{"mariadb current_timestamp(3)", versionMariaDB, "datetime(3)", "datetime", true, liveStr("current_timestamp(3)"), "", liveStr("CURRENT_TIMESTAMP(3)")},
		{"mariadb decimal", versionMariaDB, "decimal(10,2)", "decimal", false, liveStr("1.50"), "", liveStr("1.50")},
		{"mariadb float with scale", versionMariaDB, "float(7,2)", "float", true, liveStr("0.50"), "", liveStr("0.50")},
		{"mariadb double exponent", versionMariaDB, "double", "double", true, liveStr("1e20"), "", liveStr("1e20")},
		{"mariadb bit", versionMariaDB, "bit(3)", "bit", true, liveStr("b'101'"), "", liveStr("b'101'")},
		{"mariadb expression", versionMariaDB, "char(36)", "char", true, liveStr("uuid()"), "", liveStr("UUID()")},
		{"mysql number", versionMySQL, "int", "int", false, liveStr("0"), "", liveStr("0")},
		{"mysql negative number", versionMySQL, "int", "int", true, liveStr("-3"), "", liveStr("-3")},
		{"mysql bare string", versionMySQL, "enum('NEW','PAID')", "enum", false, liveStr("NEW"), "", liveStr("'NEW'")},
		{"mysql string that looks like a number", versionMySQL, "varchar(10)", "varchar", false, liveStr("0"), "", liveStr("'0'")},
		{"mysql the string NULL", versionMySQL, "varchar(10)", "varchar", true, liveStr("NULL"), "", liveStr("'NULL'")},
		{"mysql empty string", versionMySQL, "varchar(10)", "varchar", false, liveStr(""), "", liveStr("''")},
		{"mysql quote in bare string", versionMySQL, "varchar(10)", "varchar", true, liveStr("it's"), "", liveStr("'it''s'")},
		{"mysql no default, nullable", versionMySQL, "varchar(10)", "varchar", true, nil, "", liveStr("NULL")},
		{"mysql no default, not null", versionMySQL, "int", "int", false, nil, "", nil},
		{"mysql date", versionMySQL, "date", "date", true, liveStr("2020-01-01"), "", liveStr("'2020-01-01'")},
		{"mysql decimal", versionMySQL, "decimal(10,2)", "decimal", false, liveStr("1.50"), "", liveStr("1.50")},
		{"mysql bit", versionMySQL, "bit(3)", "bit", false, liveStr("b'101'"), "", liveStr("b'101'")},
		{"mysql bit as number", versionMySQL, "bit(3)", "bit", false, liveStr("5"), "", liveStr("b'101'")},
		{"mysql binary as hex", versionMySQL, "varbinary(8)", "varbinary", true, liveStr("0x6162"), "", liveStr("'ab'")},
		{"mysql current_timestamp", versionMySQL, "timestamp", "timestamp", false, liveStr("CURRENT_TIMESTAMP"), "DEFAULT_GENERATED", liveStr("CURRENT_TIMESTAMP")},
		{"mysql current_timestamp(3) on update", versionMySQL, "datetime(3)", "datetime", false, liveStr("CURRENT_TIMESTAMP(3)"),
			"DEFAULT_GENERATED on update CURRENT_TIMESTAMP(3)", liveStr("CURRENT_TIMESTAMP(3)")},
		{"mysql before 8.0.13: current_timestamp unmarked", "8.0.12", "timestamp", "timestamp", false, liveStr("CURRENT_TIMESTAMP"), "", liveStr("CURRENT_TIMESTAMP")},
		{"mysql text CURRENT_TIMESTAMP is a string", versionMySQL, "varchar(20)", "varchar", false, liveStr("CURRENT_TIMESTAMP"), "", liveStr("'CURRENT_TIMESTAMP'")},
		{"mysql expression", versionMySQL, "char(36)", "char", true, liveStr("uuid()"), "DEFAULT_GENERATED", liveStr("UUID()")},
		{"mysql escaped expression", versionMySQL, "varchar(20)", "varchar", true, liveStr(`_utf8mb4\'it\\\'s\'`), "DEFAULT_GENERATED", liveStr("'it''s'")},
		{"mysql expression in parentheses", versionMySQL, "int", "int", true, liveStr("(1 + 2)"), "DEFAULT_GENERATED", liveStr("1+2")},
		{"unreadable default kept as shown", versionMariaDB, "int(11)", "int", true, liveStr("nextval(`s`"), "", liveStr("nextval(`s`")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nullable := "NO"
			if tt.nullable {
				nullable = "YES"
			}
			rows := &InfoRows{
				Version: tt.version,
				Tables:  []TableRow{{Name: "t", Engine: liveStr("InnoDB")}},
				Columns: []ColumnRow{{Table: "t", Name: "c", Position: 1, ColumnType: tt.columnType, DataType: tt.dataType,
					IsNullable: nullable, Default: tt.def, Extra: tt.extra}},
			}
			s, _, err := FromRows(rows)
			if err != nil {
				t.Fatal(err)
			}
			got := s.Table("t").Column("c").Default
			if diff := cmp.Diff(tt.want, got, ignoreColumnType); diff != "" {
				t.Errorf("default (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFromRowsColumns checks types (a type the parser does not know keeps
// its name), unsigned, NULL and AUTO_INCREMENT, and the order of columns.
func TestFromRowsColumns(t *testing.T) {
	rows := &InfoRows{
		Version: versionMySQL,
		Tables:  []TableRow{{Name: "t_stock", Engine: liveStr("InnoDB")}},
		Columns: []ColumnRow{
			{Table: "t_stock", Name: "qty", Position: 2, ColumnType: "int unsigned", DataType: "int", IsNullable: "YES"},
			{Table: "t_stock", Name: "id", Position: 1, ColumnType: "bigint", DataType: "BIGINT", IsNullable: "NO", Extra: "auto_increment"},
			{Table: "t_stock", Name: "ip", Position: 3, ColumnType: "inet6", DataType: "inet6", IsNullable: "NO"},
			{Table: "v_stock", Name: "qty", Position: 1, ColumnType: "int", DataType: "int", IsNullable: "YES"},
		},
	}
	s, _, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	want := []*Column{
		{Name: "id", Type: "bigint", ColumnType: "bigint", AutoIncrement: true},
		{Name: "qty", Type: "int", ColumnType: "int unsigned", Unsigned: true, Nullable: true, Default: liveStr("NULL")},
		{Name: "ip", Type: "inet6", ColumnType: "inet6"},
	}
	if diff := cmp.Diff(want, s.Table("t_stock").Columns, ignoreColumnType); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if s.Table("v_stock") != nil || len(s.Tables) != 1 {
		t.Errorf("rows of a view made a table: %v", s.Tables)
	}
}

// TestFromRowsIndexes checks index parts, functional parts and the key order.
func TestFromRowsIndexes(t *testing.T) {
	// Rows as a MySQL 8 view may give them: in no key order.
	stats := func(firstPart StatisticsRow) []StatisticsRow {
		return []StatisticsRow{
			{Table: "t", Index: "ix_b", NonUnique: 1, Seq: 1, Column: liveStr("b"), Nullable: "YES", IndexType: "BTREE"},
			{Table: "t", Index: "ft_c", NonUnique: 1, Seq: 1, Column: liveStr("c"), Nullable: "YES", IndexType: "FULLTEXT"},
			{Table: "t", Index: "ix_a", NonUnique: 1, Seq: 2, Column: liveStr("b"), Nullable: "YES", IndexType: "BTREE"},
			firstPart,
			{Table: "t", Index: "uk_b", NonUnique: 0, Seq: 1, Column: liveStr("b"), Nullable: "YES", IndexType: "BTREE"},
			{Table: "t", Index: "uk_a", NonUnique: 0, Seq: 1, Column: liveStr("a"), IndexType: "BTREE"},
			{Table: "t", Index: "PRIMARY", NonUnique: 0, Seq: 1, Column: liveStr("id"), IndexType: "BTREE"},
			{Table: "gone", Index: "PRIMARY", NonUnique: 0, Seq: 1, Column: liveStr("id"), IndexType: "BTREE"},
		}
	}
	tests := []struct {
		version string
		stats   []StatisticsRow
		want    []*Index
	}{
		// MySQL 8: the key order is rebuilt; a functional part is its
		// expression, its quotes unescaped.
		{versionMySQL, stats(StatisticsRow{Table: "t", Index: "ix_a", NonUnique: 1, Seq: 1,
			Expression: liveStr("concat(`c`,_utf8mb4\\'-\\')"), Nullable: "YES", IndexType: "BTREE"}),
			[]*Index{
				{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}},
				{Name: "uk_a", Unique: true, Columns: []string{"a"}},
				{Name: "uk_b", Unique: true, Columns: []string{"b"}},
				{Name: "ix_a", Columns: []string{"(CONCAT(`c`, _UTF8MB4'-'))", "b"}},
				{Name: "ix_b", Columns: []string{"b"}},
				{Name: "ft_c", Columns: []string{"c"}},
			}},
		// MariaDB: the rows come in key order, which is kept.
		{versionMariaDB, stats(StatisticsRow{Table: "t", Index: "ix_a", NonUnique: 1, Seq: 1, Column: liveStr("c"), Nullable: "YES", IndexType: "BTREE"}),
			[]*Index{
				{Name: "ix_b", Columns: []string{"b"}},
				{Name: "ft_c", Columns: []string{"c"}},
				{Name: "ix_a", Columns: []string{"c", "b"}},
				{Name: "uk_b", Unique: true, Columns: []string{"b"}},
				{Name: "uk_a", Unique: true, Columns: []string{"a"}},
				{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}},
			}},
	}
	for _, tt := range tests {
		rows := &InfoRows{Version: tt.version, Tables: []TableRow{{Name: "t", Engine: liveStr("InnoDB")}}, Statistics: tt.stats}
		s, _, err := FromRows(rows)
		if err != nil {
			t.Fatal(err)
		}
		tb := s.Table("t")
		if diff := cmp.Diff(tt.want, tb.Indexes); diff != "" {
			t.Errorf("%s: indexes (-want +got):\n%s", tt.version, diff)
		}
		if diff := cmp.Diff([]string{"id"}, tb.PrimaryKey); diff != "" {
			t.Errorf("%s: primary key (-want +got):\n%s", tt.version, diff)
		}
	}
}

// TestFromRowsChecks checks ENFORCED, the flavors' orders and what happens to
// a clause the parser cannot read.
func TestFromRowsChecks(t *testing.T) {
	mysqlRows := &InfoRows{
		Version: versionMySQL,
		Tables:  []TableRow{{Name: "t", Engine: liveStr("InnoDB")}},
		Checks: []CheckRow{
			{Table: "t", Name: "t_chk_2", Clause: "(`reserved` >= 0)", Enforced: liveStr("NO")},
			{Table: "t", Name: "t_chk_1", Clause: "(`qty` >= 0)", Enforced: liveStr("YES")},
			{Table: "t", Name: "chk_code", Clause: "(`code` <> _utf8mb4\\'\\')", Enforced: liveStr("YES")},
			{Table: "v", Name: "v_chk_1", Clause: "(`x` > 0)", Enforced: liveStr("YES")},
		},
	}
	mariaRows := &InfoRows{
		Version: versionMariaDB,
		Tables:  []TableRow{{Name: "t", Engine: liveStr("InnoDB")}},
		Checks: []CheckRow{
			{Table: "t", Name: "qty", Clause: "`qty` >= 0"},
			{Table: "t", Name: "CONSTRAINT_1", Clause: "`a` > 0 and `b` > -1"},
			{Table: "t", Name: "broken", Clause: "`a` >>> 0"},
		},
	}
	tests := []struct {
		name string
		rows *InfoRows
		want []*Check
	}{
		{"mysql", mysqlRows, []*Check{
			{Name: "chk_code", Expr: "`code`!=_UTF8MB4''", Enforced: true},
			{Name: "t_chk_1", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}},
			{Name: "t_chk_2", Expr: "`reserved`>=0", NonNegative: []string{"reserved"}},
		}},
		{"mariadb", mariaRows, []*Check{
			{Name: "qty", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}},
			{Name: "CONSTRAINT_1", Expr: "`a`>0 AND `b`>-1", Enforced: true, NonNegative: []string{"a", "b"}},
			{Name: "broken", Expr: "`a` >>> 0", Enforced: true},
		}},
	}
	for _, tt := range tests {
		s, _, err := FromRows(tt.rows)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, s.Table("t").Checks); diff != "" {
			t.Errorf("%s: checks (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestFromRowsErrors(t *testing.T) {
	tests := []struct {
		name string
		rows *InfoRows
		want string
	}{
		{"no rows", nil, "schema from information_schema: no rows"},
		{"index part without column or expression", &InfoRows{
			Version:    versionMySQL,
			Tables:     []TableRow{{Name: "t"}},
			Statistics: []StatisticsRow{{Table: "t", Index: "ix", NonUnique: 1, Seq: 1}},
		}, "schema from information_schema: table t: index ix part 1 has neither a column nor an expression"},
	}
	for _, tt := range tests {
		_, _, err := FromRows(tt.rows)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// failingQuerier fails every query.
type failingQuerier struct {
	err error
}

func (q failingQuerier) QueryContext(context.Context, string, ...any) (*sql.Rows, error) {
	return nil, q.err
}

func TestIntrospectErrors(t *testing.T) {
	boom := errors.New("connection refused")
	_, err := Introspect(context.Background(), failingQuerier{err: boom}, "shop")
	if !errors.Is(err, boom) || err.Error() != "introspect shop: read version: connection refused" {
		t.Errorf("error %v, want it wrapped with what was read", err)
	}
	_, _, err = FromInformationSchema(context.Background(), failingQuerier{err: boom}, "")
	if err == nil || !strings.Contains(err.Error(), "no database") {
		t.Errorf("error %v for no database", err)
	}
}
