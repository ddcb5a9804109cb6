package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// alterBase is the table most ALTER cases start from.
const alterBase = "CREATE TABLE t (id INT NOT NULL, qty INT NOT NULL DEFAULT 0 CHECK (qty >= 0), " +
	"sku VARCHAR(20) NOT NULL, wh INT, PRIMARY KEY (id), UNIQUE KEY uk_sku (sku), KEY idx_wh (wh, qty), " +
	"CONSTRAINT cap CHECK (qty < 1000));\n"

func TestFromDDLAlterTable(t *testing.T) {
	id := &Column{Name: "id", Type: "int"}
	qty := &Column{Name: "qty", Type: "int", Default: defaultOf("0")}
	sku := &Column{Name: "sku", Type: "varchar"}
	wh := &Column{Name: "wh", Type: "int", Nullable: true, Default: defaultOf("NULL")}
	pk := &Index{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}}
	ukSku := &Index{Name: "uk_sku", Unique: true, Columns: []string{"sku"}}
	idxWh := &Index{Name: "idx_wh", Columns: []string{"wh", "qty"}}
	qtyCheck := &Check{Name: "qty", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}}
	capCheck := &Check{Name: "cap", Expr: "`qty`<1000", Enforced: true}
	tests := []struct {
		name string
		sql  string
		want *Table
	}{
		{
			name: "add columns first, after and last",
			sql:  "ALTER TABLE t ADD COLUMN a INT FIRST, ADD b INT AFTER qty, ADD COLUMN (c INT, d BIGINT UNSIGNED NOT NULL DEFAULT 1)",
			want: &Table{Name: "t",
				Columns: []*Column{{Name: "a", Type: "int", Nullable: true, Default: defaultOf("NULL")}, id, qty, {Name: "b", Type: "int", Nullable: true, Default: defaultOf("NULL")}, sku, wh,
					{Name: "c", Type: "int", Nullable: true, Default: defaultOf("NULL")}, {Name: "d", Type: "bigint", Unsigned: true, Default: defaultOf("1")}},
				Indexes: []*Index{pk, ukSku, idxWh}, Checks: []*Check{qtyCheck, capCheck}, PrimaryKey: []string{"id"}},
		},
		{
			name: "add column with inline keys and check, and if not exists",
			sql:  "ALTER TABLE t ADD COLUMN IF NOT EXISTS qty BIGINT, ADD COLUMN IF NOT EXISTS pay_no VARCHAR(32) NOT NULL UNIQUE, ADD COLUMN bal INT CHECK (bal > -1)",
			want: &Table{Name: "t",
				Columns:    []*Column{id, qty, sku, wh, {Name: "pay_no", Type: "varchar"}, {Name: "bal", Type: "int", Nullable: true, Default: defaultOf("NULL")}},
				Indexes:    []*Index{pk, ukSku, {Name: "pay_no", Unique: true, Columns: []string{"pay_no"}}, idxWh},
				Checks:     []*Check{qtyCheck, {Name: "bal", Expr: "`bal`>-1", Enforced: true, NonNegative: []string{"bal"}}, capCheck},
				PrimaryKey: []string{"id"}},
		},
		{
			name: "drop column leaves indexes and drops its checks",
			sql:  "ALTER TABLE t DROP COLUMN qty",
			want: &Table{Name: "t", Columns: []*Column{id, sku, wh},
				Indexes: []*Index{pk, ukSku, {Name: "idx_wh", Columns: []string{"wh"}}}, PrimaryKey: []string{"id"}},
		},
		{
			name: "dropping the last column of an index drops the index, and the primary key",
			sql:  "ALTER TABLE t DROP COLUMN sku, DROP COLUMN IF EXISTS nope; ALTER TABLE t DROP id",
			want: &Table{Name: "t", Columns: []*Column{qty, wh}, Indexes: []*Index{idxWh}, Checks: []*Check{qtyCheck, capCheck}},
		},
		{
			name: "modify keeps the place and drops the column check",
			sql:  "ALTER TABLE t MODIFY qty BIGINT UNSIGNED NOT NULL DEFAULT 5",
			want: &Table{Name: "t",
				Columns: []*Column{id, {Name: "qty", Type: "bigint", Unsigned: true, Default: defaultOf("5")}, sku, wh},
				Indexes: []*Index{pk, ukSku, idxWh}, Checks: []*Check{capCheck}, PrimaryKey: []string{"id"}},
		},
		{
			name: "modify with a position and a new check",
			sql:  "ALTER TABLE t MODIFY COLUMN wh INT NOT NULL FIRST, MODIFY qty INT NOT NULL CHECK (qty BETWEEN 0 AND 10) AFTER sku",
			want: &Table{Name: "t",
				Columns:    []*Column{{Name: "wh", Type: "int"}, id, sku, {Name: "qty", Type: "int"}},
				Indexes:    []*Index{pk, ukSku, idxWh},
				Checks:     []*Check{{Name: "qty", Expr: "`qty` BETWEEN 0 AND 10", Enforced: true, NonNegative: []string{"qty"}}, capCheck},
				PrimaryKey: []string{"id"}},
		},
		{
			name: "change renames in indexes, primary key and checks",
			sql:  "ALTER TABLE t CHANGE COLUMN qty quantity INT NOT NULL, CHANGE id pid BIGINT AFTER wh",
			want: &Table{Name: "t",
				Columns:    []*Column{{Name: "quantity", Type: "int"}, sku, wh, {Name: "pid", Type: "bigint"}},
				Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"pid"}}, ukSku, {Name: "idx_wh", Columns: []string{"wh", "quantity"}}},
				Checks:     []*Check{{Name: "cap", Expr: "`quantity`<1000", Enforced: true}},
				PrimaryKey: []string{"pid"}},
		},
		{
			name: "rename column keeps the definition and the check name",
			sql:  "ALTER TABLE t RENAME COLUMN qty TO stock",
			want: &Table{Name: "t",
				Columns: []*Column{id, {Name: "stock", Type: "int", Default: defaultOf("0")}, sku, wh},
				Indexes: []*Index{pk, ukSku, {Name: "idx_wh", Columns: []string{"wh", "stock"}}},
				Checks: []*Check{{Name: "qty", Expr: "`stock`>=0", Enforced: true, NonNegative: []string{"stock"}},
					{Name: "cap", Expr: "`stock`<1000", Enforced: true}},
				PrimaryKey: []string{"id"}},
		},
		{
			name: "add and drop indexes and keys",
			sql: "ALTER TABLE t ADD INDEX (qty), ADD KEY k2 (sku, wh), ADD UNIQUE (wh), ADD UNIQUE INDEX uq2 (qty, wh), " +
				"ADD CONSTRAINT uq3 UNIQUE KEY (sku, qty), DROP INDEX uk_sku, DROP KEY idx_wh, ADD FULLTEXT INDEX ft (sku)",
			want: &Table{Name: "t", Columns: []*Column{id, qty, sku, wh},
				Indexes: []*Index{pk, {Name: "uq3", Unique: true, Columns: []string{"sku", "qty"}}, {Name: "wh", Unique: true, Columns: []string{"wh"}},
					{Name: "uq2", Unique: true, Columns: []string{"qty", "wh"}}, {Name: "qty", Columns: []string{"qty"}},
					{Name: "k2", Columns: []string{"sku", "wh"}}, {Name: "ft", Columns: []string{"sku"}}},
				Checks: []*Check{qtyCheck, capCheck}, PrimaryKey: []string{"id"}},
		},
		{
			name: "drop and add primary key",
			sql:  "ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (sku, wh)",
			want: &Table{Name: "t", Columns: []*Column{id, qty, sku, {Name: "wh", Type: "int"}},
				Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"sku", "wh"}}, ukSku, idxWh},
				Checks:     []*Check{qtyCheck, capCheck},
				PrimaryKey: []string{"sku", "wh"}},
		},
		{
			name: "add, drop and alter checks",
			sql: "ALTER TABLE t ADD CONSTRAINT pos_wh CHECK (wh >= 1), ADD CHECK (0 <= qty AND sku <> ''), " +
				"ADD CONSTRAINT lim CHECK (qty < 10) NOT ENFORCED, DROP CHECK cap, ALTER CHECK pos_wh NOT ENFORCED, DROP CONSTRAINT qty",
			want: &Table{Name: "t", Columns: []*Column{id, qty, sku, wh}, Indexes: []*Index{pk, ukSku, idxWh},
				Checks: []*Check{
					{Name: "pos_wh", Expr: "`wh`>=1", NonNegative: []string{"wh"}},
					{Name: "CONSTRAINT_1", Expr: "0<=`qty` AND `sku`!=_UTF8MB4''", Enforced: true, NonNegative: []string{"qty"}},
					{Name: "lim", Expr: "`qty`<10"},
				},
				PrimaryKey: []string{"id"}},
		},
		{
			name: "drop constraint names a unique index",
			sql:  "ALTER TABLE t DROP CONSTRAINT uk_sku",
			want: &Table{Name: "t", Columns: []*Column{id, qty, sku, wh}, Indexes: []*Index{pk, idxWh},
				Checks: []*Check{qtyCheck, capCheck}, PrimaryKey: []string{"id"}},
		},
		{
			name: "engine, rename index and rename table",
			sql:  "ALTER TABLE t ENGINE=MyISAM, RENAME INDEX idx_wh TO idx_wh_qty, RENAME TO t2",
			want: &Table{Name: "t2", Columns: []*Column{id, qty, sku, wh}, Indexes: []*Index{pk, ukSku, {Name: "idx_wh_qty", Columns: []string{"wh", "qty"}}},
				Checks: []*Check{qtyCheck, capCheck}, Engine: "MyISAM", PrimaryKey: []string{"id"}},
		},
		{
			name: "set and drop default",
			sql:  "ALTER TABLE t ALTER COLUMN wh SET DEFAULT '3', ALTER qty DROP DEFAULT",
			want: &Table{Name: "t", Columns: []*Column{id, {Name: "qty", Type: "int"}, sku, {Name: "wh", Type: "int", Nullable: true, Default: defaultOf("3")}},
				Indexes: []*Index{pk, ukSku, idxWh}, Checks: []*Check{qtyCheck, capCheck}, PrimaryKey: []string{"id"}},
		},
		{
			name: "create and drop index statements",
			sql:  "CREATE UNIQUE INDEX uk_wh ON t (wh); CREATE INDEX IF NOT EXISTS uk_wh ON t (qty); CREATE INDEX ix_q ON `conf`.`t` (qty); DROP INDEX uk_sku ON t; DROP INDEX IF EXISTS nope ON t; DROP INDEX `PRIMARY` ON t",
			want: &Table{Name: "t", Columns: []*Column{id, qty, sku, wh},
				Indexes: []*Index{{Name: "uk_wh", Unique: true, Columns: []string{"wh"}}, idxWh, {Name: "ix_q", Columns: []string{"qty"}}},
				Checks:  []*Check{qtyCheck, capCheck}},
		},
		{
			name: "foreign key index goes when a covering index comes",
			sql: "CREATE TABLE p (id INT PRIMARY KEY); ALTER TABLE t ADD COLUMN pid INT, ADD CONSTRAINT fk_p FOREIGN KEY (pid) REFERENCES p (id), ADD FOREIGN KEY (wh) REFERENCES p (id); " +
				"ALTER TABLE t ADD KEY (pid, wh); ALTER TABLE t DROP FOREIGN KEY fk_p, DROP FOREIGN KEY t_ibfk_1",
			want: &Table{Name: "t", Columns: []*Column{id, qty, sku, wh, {Name: "pid", Type: "int", Nullable: true, Default: defaultOf("NULL")}},
				Indexes: []*Index{pk, ukSku, idxWh, {Name: "pid", Columns: []string{"pid", "wh"}}},
				Checks:  []*Check{qtyCheck, capCheck}, PrimaryKey: []string{"id"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := replayDDLTable(t, alterBase+tt.sql, tt.want.Name)
			if diff := cmp.Diff(tt.want, got, ignoreColumnType); diff != "" {
				t.Errorf("table mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromDDLDropAndRenameTables(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want []string
	}{
		{"drop several", "CREATE TABLE a (x INT); CREATE TABLE b (x INT); CREATE TABLE c (x INT); DROP TABLE a, `db`.b", []string{"c"}},
		{"drop if exists", "CREATE TABLE a (x INT); DROP TABLE IF EXISTS a, nope", nil},
		{"rename several", "CREATE TABLE a (x INT); CREATE TABLE c (x INT); RENAME TABLE a TO b, c TO d", []string{"b", "d"}},
		{"swap through a third name", "CREATE TABLE a (x INT); CREATE TABLE b (y INT); RENAME TABLE a TO tmp, b TO a, tmp TO b", []string{"a", "b"}},
		{"recreate after drop", "CREATE TABLE a (x INT); DROP TABLE a; CREATE TABLE a (y INT)", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := replayDDL(t, tt.sql)
			if len(errs) != 0 {
				t.Fatalf("errors: %v", errs)
			}
			var got []string
			for _, tb := range s.Sorted() {
				got = append(got, tb.Name)
			}
			if diff := cmp.Diff(tt.want, got, ignoreColumnType); diff != "" {
				t.Errorf("tables (-want +got):\n%s", diff)
			}
		})
	}
	s, _ := replayDDL(t, "CREATE TABLE a (x INT); CREATE TABLE b (y INT); RENAME TABLE a TO tmp, b TO a, tmp TO b")
	if c := s.Table("a").Columns[0].Name; c != "y" {
		t.Errorf("after the swap, a has column %s, want y", c)
	}
}
