package schema

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsMigrationName(t *testing.T) {
	tests := []struct {
		base    string
		version uint64
		up, ok  bool
		// looks: LooksLikeMigration, a migration or a misnamed one.
		looks bool
	}{
		{"000001_create_inventory.up.sql", 1, true, true, true},
		{"20240102150405_add_version.down.sql", 20240102150405, false, true, true},
		{"7_with.dots.in.title.up.sql", 7, true, true, true},
		{"1_.up.sql", 0, false, false, true},
		{"1.up.sql", 0, false, false, true},
		{"1-init.up.sql", 0, false, false, true},
		{"1_init.UP.sql", 0, false, false, true},
		{"1_init.up.sql.bak", 0, false, false, true},
		{"1_init.up.sql.orig", 0, false, false, true},
		{"000002_old.up.sql~", 0, false, false, true},
		{"1_init.down", 0, false, false, true},
		{"1_init.up.txt", 0, false, false, true},
		{"99999999999999999999_huge.up.sql", 0, false, false, true},
		{"1_init.sql", 0, false, false, false},
		{"init.up.sql", 0, false, false, false},
		{"x1_init.up.sql", 0, false, false, false},
		{".000002_old.up.sql.swp", 0, false, false, false},
		{"2fa.up.sql", 0, false, false, false},
		{"2024_report.update.sql", 0, false, false, false},
	}
	for _, tt := range tests {
		v, up, ok := IsMigrationName(tt.base)
		if v != tt.version || up != tt.up || ok != tt.ok {
			t.Errorf("IsMigrationName(%q) = %d, %v, %v; want %d, %v, %v", tt.base, v, up, ok, tt.version, tt.up, tt.ok)
		}
		if got := LooksLikeMigration(tt.base); got != tt.looks {
			t.Errorf("LooksLikeMigration(%q) = %v, want %v", tt.base, got, tt.looks)
		}
	}
}

// A file named like a migration and not exactly like one is refused, with
// every such file named and what is wrong with it: golang-migrate would run
// some of them (000002_old.up.sql~), lint and plan none.
func TestListMigrationsRefusesMisnamed(t *testing.T) {
	dir := t.TempDir()
	writeMigrationFiles(t, dir, "000001_init.up.sql", "000002_old.up.sql~", "000003_x.UP.SQL", "000004.up.sql",
		"000005_y.down.sql.orig", "README.md", "seed.sql")
	_, err := ListMigrations(dir)
	if !errors.Is(err, ErrMisnamedMigration) {
		t.Fatalf("err = %v, want ErrMisnamedMigration", err)
	}
	for _, want := range []string{
		filepath.Join(dir, "000002_old.up.sql~") + ": it does not end in .up.sql or .down.sql",
		filepath.Join(dir, "000003_x.UP.SQL") + ": the direction and extension must be lower case",
		filepath.Join(dir, "000004.up.sql") + ": no title",
		filepath.Join(dir, "000005_y.down.sql.orig") + ": it does not end",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "README") || strings.Contains(err.Error(), "seed") || strings.Contains(err.Error(), "000001") {
		t.Errorf("error names a file that is not misnamed:\n%v", err)
	}
	if _, _, err := LoadMigrations(dir); !errors.Is(err, ErrMisnamedMigration) {
		t.Errorf("LoadMigrations: err = %v, want ErrMisnamedMigration", err)
	}
	if _, err := Load(dir); !errors.Is(err, ErrMisnamedMigration) {
		t.Errorf("Load: err = %v, want ErrMisnamedMigration", err)
	}
}

func writeMigrationFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte("SELECT 1;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestListMigrations(t *testing.T) {
	dir := t.TempDir()
	writeMigrationFiles(t, dir, "10_ten.down.sql", "10_ten.up.sql", "2_two.up.sql", "1_one.down.sql", "1_one.up.sql",
		"README.md", "3_three.sql", "sub/", "sub/4_four.up.sql", "0003_three.up.sql")
	got, err := ListMigrations(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []MigrationFile{
		{Path: filepath.Join(dir, "1_one.up.sql"), Version: 1, Name: "one", Up: true},
		{Path: filepath.Join(dir, "1_one.down.sql"), Version: 1, Name: "one"},
		{Path: filepath.Join(dir, "2_two.up.sql"), Version: 2, Name: "two", Up: true},
		{Path: filepath.Join(dir, "0003_three.up.sql"), Version: 3, Name: "three", Up: true},
		{Path: filepath.Join(dir, "10_ten.up.sql"), Version: 10, Name: "ten", Up: true},
		{Path: filepath.Join(dir, "10_ten.down.sql"), Version: 10, Name: "ten"},
	}
	if diff := cmp.Diff(want, got, ignoreColumnType); diff != "" {
		t.Errorf("ListMigrations (-want +got):\n%s", diff)
	}
}

func TestListMigrationsErrors(t *testing.T) {
	dir := t.TempDir()
	writeMigrationFiles(t, dir, "1_one.up.sql", "2_two.up.sql", "002_second.up.sql", "2_two.down.sql")
	_, err := ListMigrations(dir)
	if err == nil {
		t.Fatal("duplicate versions: no error")
	}
	for _, want := range []string{"2_two.up.sql", "002_second.up.sql", "version 2"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if _, err := ListMigrations(filepath.Join(dir, "nope")); err == nil {
		t.Error("missing folder: no error")
	}
	if _, _, err := LoadMigrations(filepath.Join(dir, "nope")); err == nil {
		t.Error("LoadMigrations of a missing folder: no error")
	}
	if _, _, err := LoadDump(filepath.Join(dir, "nope.sql")); err == nil {
		t.Error("LoadDump of a missing file: no error")
	}
}

func TestLoadMigrationsShop(t *testing.T) {
	dir := filepath.Join("testdata", "migrations", "shop")
	s, errs, err := LoadMigrations(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 0 {
		t.Fatalf("replay errors: %v", errs)
	}
	var names []string
	for _, tb := range s.Sorted() {
		names = append(names, tb.Name)
	}
	if diff := cmp.Diff([]string{"t_inventory", "t_order", "t_payment", "t_wallet"}, names); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	want := map[string]*Table{
		"t_inventory": {
			Name: "t_inventory",
			Columns: []*Column{
				{Name: "id", Type: "bigint", Unsigned: true, AutoIncrement: true},
				{Name: "product_id", Type: "bigint", Unsigned: true},
				{Name: "inventory", Type: "int", Default: defaultOf("0")},
				{Name: "version", Type: "int", Unsigned: true, Default: defaultOf("0")},
				{Name: "status", Type: "enum", Default: defaultOf("'ON_SALE'")},
				{Name: "updated_at", Type: "timestamp", Default: defaultOf("CURRENT_TIMESTAMP")},
			},
			Indexes: []*Index{
				{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}},
				{Name: "product_id", Columns: []string{"product_id"}},
			},
			Checks:     []*Check{{Name: "chk_inventory_non_negative", Expr: "`inventory`>=0", Enforced: true, NonNegative: []string{"inventory"}}},
			Engine:     "InnoDB",
			PrimaryKey: []string{"id"},
			Created:    Pos{File: filepath.Join(dir, "000001_create_inventory.up.sql"), Line: 2, Col: 1},
		},
		"t_payment": {
			Name: "t_payment",
			Columns: []*Column{
				{Name: "id", Type: "bigint", Unsigned: true, AutoIncrement: true},
				{Name: "order_id", Type: "bigint", Unsigned: true},
				{Name: "pay_no", Type: "varchar"},
				{Name: "channel", Type: "varchar"},
				{Name: "trade_no", Type: "varchar", Nullable: true, Default: defaultOf("NULL")},
				{Name: "paid_amount", Type: "decimal"},
			},
			Indexes: []*Index{
				{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}},
				{Name: "uk_pay_no", Unique: true, Columns: []string{"pay_no"}},
				{Name: "channel", Unique: true, Columns: []string{"channel", "trade_no"}},
				{Name: "fk_payment_order", Columns: []string{"order_id"}},
			},
			Engine:     "InnoDB",
			PrimaryKey: []string{"id"},
			Created:    Pos{File: filepath.Join(dir, "000002_create_orders.up.sql"), Line: 11, Col: 1},
		},
		"t_wallet": {
			Name: "t_wallet",
			Columns: []*Column{
				{Name: "user_id", Type: "bigint", Unsigned: true},
				{Name: "balance", Type: "decimal", Default: defaultOf("0.00")},
				{Name: "bonus_points", Type: "int", Default: defaultOf("0")},
			},
			Indexes:    []*Index{{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"user_id"}}},
			Checks:     []*Check{{Name: "balance", Expr: "`balance`>=0", Enforced: true, NonNegative: []string{"balance"}}},
			PrimaryKey: []string{"user_id"},
			Created:    Pos{File: filepath.Join(dir, "000007_account.up.sql"), Line: 1, Col: 1},
		},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, s.Table(name), ignoreColumnType); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	order := s.Table("t_order")
	if order == nil || order.Column("status") == nil || order.Column("state") != nil || !order.HasUniqueOn("order_no") ||
		order.Index("idx_user") == nil || !cmp.Equal(order.Index("idx_user").Columns, []string{"user_id", "status"}) {
		t.Errorf("t_order not replayed as expected: %+v", order)
	}
}

// TestLoadDumpMatchesMigrations replays the dump MariaDB 10.11 printed
// (mariadb-dump --no-data) after running the shop migrations: it must give
// the model the migrations give.
func TestLoadDumpMatchesMigrations(t *testing.T) {
	fromMig, errs, err := LoadMigrations(filepath.Join("testdata", "migrations", "shop"))
	if err != nil || len(errs) != 0 {
		t.Fatalf("LoadMigrations: %v %v", err, errs)
	}
	fromDump, errs, err := LoadDump(filepath.Join("testdata", "dump", "shop_mariadb.sql"))
	if err != nil || len(errs) != 0 {
		t.Fatalf("LoadDump: %v %v", err, errs)
	}
	for _, s := range []*Schema{fromMig, fromDump} {
		for _, tb := range s.Tables {
			tb.Created = Pos{}
			if tb.Engine == "" {
				tb.Engine = "InnoDB" // the dump always names the engine
			}
		}
	}
	if diff := cmp.Diff(fromMig, fromDump); diff != "" {
		t.Errorf("dump differs from migrations (-migrations +dump):\n%s", diff)
	}
}

func TestLoadDumpMySQL8(t *testing.T) {
	path := filepath.Join("testdata", "dump", "shop_mysql8.sql")
	s, errs, err := LoadDump(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 0 {
		t.Fatalf("replay errors: %v", errs)
	}
	want := &Table{
		Name: "t_stock",
		Columns: []*Column{
			{Name: "id", Type: "bigint", Unsigned: true, AutoIncrement: true},
			{Name: "sku", Type: "varchar"},
			{Name: "quantity", Type: "int", Default: defaultOf("0")},
			{Name: "reserved", Type: "int", Default: defaultOf("0")},
			{Name: "version", Type: "int", Unsigned: true, Default: defaultOf("0")},
			{Name: "updated_at", Type: "datetime", Default: defaultOf("CURRENT_TIMESTAMP(3)")},
		},
		Indexes: []*Index{
			{Name: "PRIMARY", Unique: true, Primary: true, Columns: []string{"id"}},
			{Name: "uk_sku", Unique: true, Columns: []string{"sku"}},
		},
		Checks: []*Check{
			{Name: "t_stock_chk_1", Expr: "`quantity`>=0", Enforced: true, NonNegative: []string{"quantity"}},
			{Name: "t_stock_chk_2", Expr: "`reserved`>=0", NonNegative: []string{"reserved"}},
		},
		Engine:     "InnoDB",
		PrimaryKey: []string{"id"},
		Created:    Pos{File: path, Line: 25, Col: 1},
	}
	if diff := cmp.Diff(want, s.Table("t_stock"), ignoreColumnType); diff != "" {
		t.Errorf("t_stock (-want +got):\n%s", diff)
	}
	var names []string
	for _, tb := range s.Sorted() {
		names = append(names, tb.Name)
	}
	if diff := cmp.Diff([]string{"t_ledger", "t_stock"}, names); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	if l := s.Table("t_ledger"); l.Engine != "MyISAM" {
		t.Errorf("t_ledger engine %q, want MyISAM", l.Engine)
	}
}

func TestLoadDumpReportsBrokenDDLOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dump.sql")
	text := "/*!40101 SET NAMES utf8mb4 */;\nLOCK TABLES `t` WRITE;\nINSERT INTO t VALUES (1,'a\\'b');\nUNLOCK TABLES;\n" +
		"THIS IS NOT SQL;\nCREATE TABLE t (id INT,\n  qty INT CHEK (qty >= 0));\n/*!50001 CREATE ALGORITHM=UNDEFINED VIEW v AS SELECT 1 */;\nCREATE TABLE u (id INT);\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, errs, err := LoadDump(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []*ReplayError{{File: path, Line: 7, Col: 11, Msg: `cannot parse statement: syntax error near "CHEK (qty >= 0))"`}}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if s.Table("u") == nil {
		t.Error("table u after the broken statement is missing")
	}
}

func TestLoadMigrationsReportsErrorsInOrder(t *testing.T) {
	dir := filepath.Join("testdata", "migrations", "broken")
	s, errs, err := LoadMigrations(dir)
	if err != nil {
		t.Fatal(err)
	}
	one, two := filepath.Join(dir, "1_init.up.sql"), filepath.Join(dir, "2_more.up.sql")
	want := []*ReplayError{
		{File: one, Line: 3, Col: 1, Msg: "alter table t_missing: unknown table"},
		{File: one, Line: 4, Col: 1, Msg: "add column qty to t_a: duplicate column"},
		{File: one, Line: 5, Col: 1, Msg: "create table t_a: table already exists"},
		{File: two, Line: 1, Col: 1, Msg: "drop column nope from t_a: unknown column"},
		{File: two, Line: 1, Col: 1, Msg: "drop index nope on t_a: unknown index"},
		{File: two, Line: 4, Col: 32, Msg: `cannot parse statement: syntax error near "VALID_SYNTAX` + "\n" + `)"`},
		{File: two, Line: 6, Col: 1, Msg: "drop index ix on t_a: unknown index"},
		{File: two, Line: 7, Col: 1, Msg: "create index ix on t_nope: unknown table"},
		{File: two, Line: 8, Col: 1, Msg: "drop table t_nope: unknown table"},
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if s.Table("t_a") == nil || s.Table("t_b") != nil {
		t.Errorf("tables after the errors: %v", s.Tables)
	}
}
