package migrator

import (
	"testing"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// liveStock is t_stock as the server shows it.
func liveStock(t *testing.T) *schema.Schema {
	t.Helper()
	return fromDDL(t, "CREATE TABLE t_stock (id INT PRIMARY KEY, sku VARCHAR(16) NOT NULL, qty INT NOT NULL, note VARCHAR(300) NULL, code VARCHAR(10) NULL)")
}

func fromDDL(t *testing.T, sql string) *schema.Schema {
	t.Helper()
	s, errs := schema.FromDDL([]schema.DDL{{SQL: sql, File: "f.sql", Line: 1, Col: 1}})
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	return s
}

func TestStatementImpact(t *testing.T) {
	const (
		maria1011 = "10.11.6-MariaDB-0+deb12u1"
		maria102  = "10.2.44-MariaDB"
		mysql80   = "8.0.36"
		mysql8012 = "8.0.12"
	)
	for _, tc := range []struct {
		server, sql string
		alg, lock   string
		blocks      bool
		refuses     bool
	}{
		{maria1011, "ALTER TABLE t_stock ADD CONSTRAINT chk CHECK (qty >= 0)", schema.AlgorithmCopy, schema.LockShared, true, false},
		{mysql80, "ALTER TABLE t_stock ADD CONSTRAINT chk CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock ADD CONSTRAINT chk CHECK (qty >= 0), ALGORITHM=INPLACE", schema.AlgorithmCopy, schema.LockShared, false, true},
		{maria1011, "ALTER TABLE t_stock ADD CONSTRAINT chk CHECK (qty >= 0), LOCK=NONE", schema.AlgorithmCopy, schema.LockShared, false, true},
		{maria1011, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0", schema.AlgorithmInstant, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0, ALGORITHM=INSTANT, LOCK=NONE", schema.AlgorithmInstant, schema.LockNone, false, false},
		{mysql80, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0, ALGORITHM=INSTANT, LOCK=NONE", schema.AlgorithmInstant, schema.LockNone, false, true},
		{mysql80, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0, LOCK=NONE", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria102, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0", schema.AlgorithmInplace, schema.LockNone, false, false},
		{mysql8012, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0", schema.AlgorithmInstant, schema.LockNone, false, false},
		{mysql8012, "ALTER TABLE t_stock ADD COLUMN version BIGINT NOT NULL DEFAULT 0 AFTER id", schema.AlgorithmInplace, schema.LockNone, false, false},
		{mysql80, "ALTER TABLE t_stock ADD COLUMN c INT CHECK (c > 0)", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock ADD UNIQUE INDEX uk_sku (sku), ALGORITHM=INPLACE, LOCK=NONE", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock ADD INDEX ix_qty (qty), LOCK=SHARED", schema.AlgorithmInplace, schema.LockShared, true, false},
		{maria1011, "CREATE INDEX ix_qty ON t_stock (qty) LOCK=EXCLUSIVE", schema.AlgorithmInplace, schema.LockExclusive, true, false},
		{maria1011, "CREATE UNIQUE INDEX uk_sku ON t_stock (sku)", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock ADD FULLTEXT INDEX ft_sku (sku)", schema.AlgorithmInplace, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock MODIFY qty BIGINT NOT NULL", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock MODIFY qty INT(11) NOT NULL DEFAULT 0", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock MODIFY qty INT NULL", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock MODIFY sku VARCHAR(100) NOT NULL", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock MODIFY code VARCHAR(60) NULL", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock MODIFY sku VARCHAR(32) NOT NULL", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock MODIFY note VARCHAR(400) NULL", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock CHANGE qty quantity INT NOT NULL", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock MODIFY missing INT", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock ALTER COLUMN qty SET DEFAULT 1", schema.AlgorithmInstant, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock DROP COLUMN note", schema.AlgorithmInstant, schema.LockNone, false, false},
		{"10.3.39-MariaDB", "ALTER TABLE t_stock DROP COLUMN note", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock ENGINE=InnoDB", schema.AlgorithmInplace, schema.LockNone, false, false},
		{maria1011, "ALTER TABLE t_stock CONVERT TO CHARACTER SET utf8mb4", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock DROP PRIMARY KEY", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "ALTER TABLE t_stock ADD INDEX ix_qty (qty), ALGORITHM=COPY", schema.AlgorithmCopy, schema.LockShared, true, false},
		{maria1011, "CREATE TABLE t_new (id INT PRIMARY KEY)", schema.AlgorithmNone, schema.AlgorithmNone, false, false},
		{maria1011, "UPDATE t_stock SET qty = 0 WHERE qty < 0", schema.AlgorithmNone, schema.AlgorithmNone, false, false},
	} {
		stmts, errs := parseScript(sqlparse.NewParser(), "f.sql", tc.sql+";")
		if len(errs) > 0 || len(stmts) != 1 {
			t.Fatalf("%s: parse: %v", tc.sql, errs)
		}
		im := statementImpact(schema.ParseServer(tc.server), "shop", &stmts[0], liveStock(t))
		if im.Algorithm != tc.alg || im.Lock != tc.lock || im.BlocksWrites != tc.blocks || (im.ServerRefuses != "") != tc.refuses {
			t.Errorf("%s on %s:\n  got  %s %s blocks %v refuses %q (%s)\n  want %s %s blocks %v refuses %v",
				tc.sql, tc.server, im.Algorithm, im.Lock, im.BlocksWrites, im.ServerRefuses, im.Why, tc.alg, tc.lock, tc.blocks, tc.refuses)
		}
		if im.Table == "" {
			t.Errorf("%s: no table", tc.sql)
		}
	}
}

func TestBlockingLimit(t *testing.T) {
	ims := []Impact{
		{File: "a", Table: "big", BlocksWrites: true, Rows: 200000},
		{File: "b", Table: "big", BlocksWrites: true, Rows: 200000, Tool: PTOSCBinary},
		{File: "c", Table: "big", BlocksWrites: false, Rows: 200000},
		{File: "d", Table: "small", BlocksWrites: true, Rows: 100000},
		{File: "e", Table: "new", BlocksWrites: true, Rows: -1},
	}
	got := blocking(ims, 100000)
	if len(got) != 1 || got[0].File != "a" {
		t.Errorf("blocking at 100000: %+v, want a alone", got)
	}
	if got := blocking(ims, 0); got != nil {
		t.Errorf("blocking with no limit: %+v", got)
	}
}

func TestNarrowing(t *testing.T) {
	col := func(ddl string) *schema.Column {
		return fromDDL(t, "CREATE TABLE t (id INT PRIMARY KEY, c "+ddl+")").Table("t").Column("c")
	}
	typ := func(ddl string) sqlparse.ColumnType {
		stmts, errs := parseScript(sqlparse.NewParser(), "f.sql", "ALTER TABLE t MODIFY c "+ddl+";")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return sqlparse.TypeOfColumn(stmts[0].Node.(*sqlparse.AlterTableStmt).Specs[0].NewColumns[0])
	}
	for _, tc := range []struct{ was, now, cond string }{
		{"VARCHAR(20)", "VARCHAR(5)", "CHAR_LENGTH(`c`) > 5"},
		{"VARCHAR(20)", "VARCHAR(40)", ""},
		{"TEXT", "VARCHAR(100)", "CHAR_LENGTH(`c`) > 100"},
		{"CHAR(10)", "CHAR(3)", "CHAR_LENGTH(`c`) > 3"},
		{"VARBINARY(16)", "BINARY(8)", "LENGTH(`c`) > 8"},
		{"MEDIUMTEXT", "TEXT", "LENGTH(`c`) > 65535"},
		{"VARCHAR(100)", "TEXT", ""},
		{"INT", "TINYINT", "`c` < -128 OR `c` > 127"},
		{"INT", "INT UNSIGNED", "`c` < 0"},
		{"INT UNSIGNED", "BIGINT", ""},
		{"SMALLINT", "INT", ""},
		{"TINYINT UNSIGNED", "SMALLINT", ""},
		{"DECIMAL(10,2)", "DECIMAL(6,2)", "ROUND(`c`, 2) < -9999.99 OR ROUND(`c`, 2) > 9999.99"},
		{"DECIMAL(6,2)", "DECIMAL(10,2)", ""},
		{"DECIMAL(10,2)", "DECIMAL(10,2) UNSIGNED", "ROUND(`c`, 2) < 0"},
		{"DECIMAL(10,4)", "DECIMAL(10,2)", ""}, // rounded, never refused
		{"ENUM('a','b','c')", "ENUM('a','b')", "`c` IN ('c')"},
		{"SET('x','y')", "SET('x')", "FIND_IN_SET('y', `c`) > 0"},
		{"ENUM('a','b')", "ENUM('a','b','c')", ""},
		{"INT", "DECIMAL(12,0)", ""},
		{"BIGINT", "DECIMAL(12,0)", "ROUND(`c`, 0) < -999999999999 OR ROUND(`c`, 0) > 999999999999"},
		{"DATETIME", "INT", ""},
	} {
		cond, ok := narrowing(col(tc.was), typ(tc.now))
		if cond != tc.cond || ok != (tc.cond != "") {
			t.Errorf("%s -> %s: %q %v, want %q", tc.was, tc.now, cond, ok, tc.cond)
		}
	}
}
