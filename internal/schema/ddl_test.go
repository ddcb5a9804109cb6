package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// replayDDL replays the statements of text as if it were the file m.sql.
func replayDDL(t *testing.T, text string) (*Schema, []*ReplayError) {
	t.Helper()
	return FromDDL(statementsOf(sqlparse.NewParser(), "m.sql", text, false))
}

// replayDDLTable replays text, which must replay without errors, and returns
// the table named name with its Created position cleared.
func replayDDLTable(t *testing.T, text, name string) *Table {
	t.Helper()
	s, errs := replayDDL(t, text)
	for _, e := range errs {
		t.Errorf("unexpected replay error: %v", e)
	}
	tb := s.Table(name)
	if tb == nil {
		t.Fatalf("table %s missing; have %v", name, s.Tables)
	}
	tb.Created = Pos{}
	return tb
}

func defaultOf(s string) *string { return &s }

func TestFromDDLCreateTable(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want *Table
	}{
		{
			name: "columns types defaults and inline primary key",
			sql: "CREATE TABLE t_x (id BIGINT(20) UNSIGNED AUTO_INCREMENT PRIMARY KEY, qty INT NOT NULL DEFAULT '0', " +
				"price DECIMAL(10,2) DEFAULT 0, status ENUM('NEW','PAID') NOT NULL DEFAULT 'NEW', note VARCHAR(20) DEFAULT NULL, " +
				"memo TEXT, flag BOOLEAN DEFAULT TRUE, bits BIT(4) DEFAULT b'101', n INTEGER DEFAULT -5, r REAL, " +
				"at DATETIME(3) NOT NULL DEFAULT NOW(3), ts TIMESTAMP NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(), " +
				"bin VARBINARY(8), big NUMERIC(5) DEFAULT '7', code CHAR(2) DEFAULT 5)",
			want: &Table{
				Name: "t_x",
				Columns: []*Column{
					{Name: "id", Type: "bigint", Unsigned: true, AutoIncrement: true},
					{Name: "qty", Type: "int", Default: defaultOf("0")},
					{Name: "price", Type: "decimal", Nullable: true, Default: defaultOf("0.00")},
					{Name: "status", Type: "enum", Default: defaultOf("'NEW'")},
					{Name: "note", Type: "varchar", Nullable: true, Default: defaultOf("NULL")},
					{Name: "memo", Type: "text", Nullable: true, Default: defaultOf("NULL")},
					{Name: "flag", Type: "tinyint", Nullable: true, Default: defaultOf("1"), Boolean: true},
					{Name: "bits", Type: "bit", Nullable: true, Default: defaultOf("b'101'")},
					{Name: "n", Type: "int", Nullable: true, Default: defaultOf("-5")},
					{Name: "r", Type: "double", Nullable: true, Default: defaultOf("NULL")},
					{Name: "at", Type: "datetime", Default: defaultOf("CURRENT_TIMESTAMP(3)")},
					{Name: "ts", Type: "timestamp", Nullable: true, Default: defaultOf("CURRENT_TIMESTAMP")},
					{Name: "bin", Type: "varbinary", Nullable: true, Default: defaultOf("NULL")},
					{Name: "big", Type: "decimal", Nullable: true, Default: defaultOf("7")},
					{Name: "code", Type: "char", Nullable: true, Default: defaultOf("'5'")},
				},
				Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}}},
				PrimaryKey: []string{"id"},
			},
		},
		{
			name: "inline unique and check take the column name",
			sql:  "CREATE TABLE t (qty INT UNSIGNED CHECK (qty >= 0), pay_no VARCHAR(32) NOT NULL UNIQUE, code INT UNIQUE KEY, UNIQUE (code))",
			want: &Table{
				Name: "t",
				Columns: []*Column{
					{Name: "qty", Type: "int", Unsigned: true, Nullable: true, Default: defaultOf("NULL")},
					{Name: "pay_no", Type: "varchar"},
					{Name: "code", Type: "int", Nullable: true, Default: defaultOf("NULL")},
				},
				Indexes: []*Index{
					{Name: "pay_no", Unique: true, Columns: []string{"pay_no"}},
					{Name: "code", Unique: true, Columns: []string{"code"}},
					{Name: "code_2", Unique: true, Columns: []string{"code"}},
				},
				Checks: []*Check{{Name: "qty", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}}},
			},
		},
		{
			name: "table level keys and checks",
			sql: "CREATE TABLE `t_stock` (`id` INT NOT NULL, `sku` VARCHAR(10) NOT NULL, `qty` INT NOT NULL, `wh` INT, " +
				"PRIMARY KEY (`id`), UNIQUE KEY `uk_sku` (`sku`), KEY (`wh`), INDEX (`wh`, `qty`), KEY `by_qty` (`qty`), " +
				"CONSTRAINT `pos` CHECK (`qty` >= 0), CHECK (wh > 0), CONSTRAINT CHECK (qty < 1000) NOT ENFORCED, " +
				"CONSTRAINT `cap` CHECK (qty <= 5000) NOT ENFORCED) ENGINE=innodb DEFAULT CHARSET=utf8mb4",
			want: &Table{
				Name: "t_stock",
				Columns: []*Column{
					{Name: "id", Type: "int"},
					{Name: "sku", Type: "varchar"},
					{Name: "qty", Type: "int"},
					{Name: "wh", Type: "int", Nullable: true, Default: defaultOf("NULL")},
				},
				Indexes: []*Index{
					{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}},
					{Name: "uk_sku", Unique: true, Columns: []string{"sku"}},
					{Name: "wh", Columns: []string{"wh"}},
					{Name: "wh_2", Columns: []string{"wh", "qty"}},
					{Name: "by_qty", Columns: []string{"qty"}},
				},
				Checks: []*Check{
					{Name: "pos", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}},
					{Name: "CONSTRAINT_1", Expr: "`wh`>0", Enforced: true, NonNegative: []string{"wh"}},
					{Name: "CONSTRAINT_2", Expr: "`qty`<1000"},
					{Name: "cap", Expr: "`qty`<=5000"},
				},
				Engine:     "InnoDB",
				PrimaryKey: []string{"id"},
			},
		},
		{
			name: "composite primary key makes its columns NOT NULL",
			sql:  "CREATE TABLE t (a INT NULL, b INT, c INT, PRIMARY KEY (b, a)) ENGINE = MyISAM",
			want: &Table{
				Name:       "t",
				Columns:    []*Column{{Name: "a", Type: "int"}, {Name: "b", Type: "int"}, {Name: "c", Type: "int", Nullable: true, Default: defaultOf("NULL")}},
				Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"b", "a"}}},
				Engine:     "MyISAM",
				PrimaryKey: []string{"b", "a"},
			},
		},
		{
			name: "indexes in MariaDB order",
			sql: "CREATE TABLE t (a INT, b INT NOT NULL, c VARCHAR(20), d INT, KEY (d), FULLTEXT KEY ft (c), UNIQUE (c(5)), " +
				"UNIQUE (a), UNIQUE (b), KEY (a), PRIMARY KEY (d))",
			want: &Table{
				Name: "t",
				Columns: []*Column{
					{Name: "a", Type: "int", Nullable: true, Default: defaultOf("NULL")},
					{Name: "b", Type: "int"},
					{Name: "c", Type: "varchar", Nullable: true, Default: defaultOf("NULL")},
					{Name: "d", Type: "int"},
				},
				Indexes: []*Index{
					{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"d"}},
					{Name: "b", Unique: true, Columns: []string{"b"}},
					{Name: "a", Unique: true, Columns: []string{"a"}},
					{Name: "c", Unique: true, Columns: []string{"c"}},
					{Name: "d", Columns: []string{"d"}},
					{Name: "a_2", Columns: []string{"a"}},
					{Name: "ft", Columns: []string{"c"}},
				},
				PrimaryKey: []string{"d"},
			},
		},
		{
			name: "serial and the KEY column option",
			sql:  "CREATE TABLE t (id SERIAL, k INT KEY)",
			want: &Table{
				Name:       "t",
				Columns:    []*Column{{Name: "id", Type: "bigint", Unsigned: true, AutoIncrement: true}, {Name: "k", Type: "int"}},
				Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"k"}}, {Name: "id", Unique: true, Columns: []string{"id"}}},
				PrimaryKey: []string{"k"},
			},
		},
		{
			name: "json is longtext with a json_valid check, as on MariaDB",
			sql:  "CREATE TABLE t (doc JSON)",
			want: &Table{
				Name:    "t",
				Columns: []*Column{{Name: "doc", Type: "longtext", Nullable: true, Default: defaultOf("NULL")}},
				Checks:  []*Check{{Name: "doc", Expr: "JSON_VALID(`doc`)", Enforced: true}},
			},
		},
		{
			name: "foreign keys get an index unless one covers them",
			sql: "CREATE TABLE p (id INT PRIMARY KEY);\n" +
				"CREATE TABLE t (a INT, b INT, c INT, d INT, FOREIGN KEY (a) REFERENCES p (id), CONSTRAINT fk_b FOREIGN KEY (b) REFERENCES p (id), " +
				"FOREIGN KEY (c) REFERENCES p (id), KEY (c, d), d2 INT, CONSTRAINT fk_d FOREIGN KEY (d) REFERENCES p (id), UNIQUE (d))",
			want: &Table{
				Name: "t",
				Columns: []*Column{
					{Name: "a", Type: "int", Nullable: true, Default: defaultOf("NULL")},
					{Name: "b", Type: "int", Nullable: true, Default: defaultOf("NULL")},
					{Name: "c", Type: "int", Nullable: true, Default: defaultOf("NULL")},
					{Name: "d", Type: "int", Nullable: true, Default: defaultOf("NULL")},
					{Name: "d2", Type: "int", Nullable: true, Default: defaultOf("NULL")},
				},
				Indexes: []*Index{
					{Name: "d", Unique: true, Columns: []string{"d"}},
					{Name: "a", Columns: []string{"a"}},
					{Name: "fk_b", Columns: []string{"b"}},
					{Name: "c", Columns: []string{"c", "d"}},
				},
			},
		},
		{
			name: "schema-qualified names use the table name",
			sql:  "CREATE TABLE `shop`.`t_x` (id INT); ALTER TABLE shop.t_x ADD COLUMN qty INT",
			want: &Table{
				Name:    "t_x",
				Columns: []*Column{{Name: "id", Type: "int", Nullable: true, Default: defaultOf("NULL")}, {Name: "qty", Type: "int", Nullable: true, Default: defaultOf("NULL")}},
			},
		},
		{
			name: "create table like copies columns, indexes and checks",
			sql:  "CREATE TABLE a (id INT PRIMARY KEY, qty INT CHECK (qty >= 0), KEY (qty)) ENGINE=InnoDB; CREATE TABLE b LIKE a",
			want: &Table{
				Name:       "b",
				Columns:    []*Column{{Name: "id", Type: "int"}, {Name: "qty", Type: "int", Nullable: true, Default: defaultOf("NULL")}},
				Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}}, {Name: "qty", Columns: []string{"qty"}}},
				Checks:     []*Check{{Name: "qty", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}}},
				Engine:     "InnoDB",
				PrimaryKey: []string{"id"},
			},
		},
		{
			name: "create table if not exists keeps the first table",
			sql:  "CREATE TABLE IF NOT EXISTS t (a INT); CREATE TABLE IF NOT EXISTS t (b INT)",
			want: &Table{Name: "t", Columns: []*Column{{Name: "a", Type: "int", Nullable: true, Default: defaultOf("NULL")}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := replayDDLTable(t, tt.sql, tt.want.Name)
			if diff := cmp.Diff(tt.want, got, ignoreColumnType); diff != "" {
				t.Errorf("table mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromDDLCreatedPosition(t *testing.T) {
	s, errs := replayDDL(t, "-- tables\nCREATE TABLE a (id INT);\n\n  CREATE TABLE b (id INT);\nCREATE TABLE IF NOT EXISTS a (x INT);\nCREATE TABLE c LIKE a;")
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	got := map[string]Pos{}
	for name, tb := range s.Tables {
		got[name] = tb.Created
	}
	want := map[string]Pos{
		"a": {File: "m.sql", Line: 2, Col: 1},
		"b": {File: "m.sql", Line: 4, Col: 3},
		"c": {File: "m.sql", Line: 6, Col: 1},
	}
	if diff := cmp.Diff(want, got, ignoreColumnType); diff != "" {
		t.Errorf("Created mismatch (-want +got):\n%s", diff)
	}
}

func TestFromDDLIgnoresOtherStatements(t *testing.T) {
	s, errs := replayDDL(t, `CREATE TABLE t (id INT PRIMARY KEY, qty INT);
INSERT INTO t VALUES (1, 2);
SET NAMES utf8mb4;
UPDATE t SET qty = qty - 1 WHERE id = 1;
CREATE VIEW v AS SELECT id FROM t;
DROP VIEW v;
CREATE TEMPORARY TABLE tmp (x INT);
DROP TEMPORARY TABLE tmp;
CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET NEW.qty = 0;
TRUNCATE TABLE t;
CREATE DATABASE shop;
USE shop;`)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	var names []string
	for _, tb := range s.Sorted() {
		names = append(names, tb.Name)
	}
	if diff := cmp.Diff([]string{"t"}, names); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
}

func TestFromDDLParsesSQLWhenNodeIsNil(t *testing.T) {
	s, errs := FromDDL([]DDL{
		{SQL: "CREATE TABLE t (id INT)", File: "a.sql", Line: 3, Col: 1},
		{SQL: "ALTER TABLE t ADD COLUMN", File: "a.sql", Line: 4, Col: 5},
		{SQL: "  "},
	})
	if s.Table("t") == nil {
		t.Fatal("table t missing")
	}
	want := []*ReplayError{{File: "a.sql", Line: 4, Col: 29, Msg: "cannot parse statement: syntax error near \"\""}}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
