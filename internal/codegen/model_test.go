package codegen

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// tableOf replays one CREATE TABLE and returns its table.
func tableOf(t *testing.T, ddl string) *schema.Table {
	t.Helper()
	s, errs := schema.FromDDL([]schema.DDL{{SQL: ddl, File: "test.sql", Line: 1, Col: 1}})
	if len(errs) > 0 {
		t.Fatalf("replay %q: %v", ddl, errs[0])
	}
	if len(s.Tables) != 1 {
		t.Fatalf("replay %q: %d tables", ddl, len(s.Tables))
	}
	return s.Sorted()[0]
}

func TestGoName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"id", "ID"},
		{"user_id", "UserID"},
		{"api_url", "APIURL"},
		{"sku", "SKU"},
		{"created_at", "CreatedAt"},
		{"frozen_points", "FrozenPoints"},
		{"inventory", "Inventory"},
		{"userName", "UserName"},
		{"3d_model", "X3dModel"},
		{"a-b c", "ABC"},
		{"__", ""},
		{"héllo_wörld", "HLloWRld"},
		{"http_url_id", "HTTPURLID"},
	}
	for _, tt := range tests {
		if got := GoName(tt.in); got != tt.want {
			t.Errorf("GoName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTypeNameAndFileBase(t *testing.T) {
	tests := []struct{ table, prefix, typ, file string }{
		{"t_inventory", "t_", "Inventory", "inventory"},
		{"T_Inventory", "t_", "Inventory", "inventory"},
		{"inventory", "t_", "Inventory", "inventory"},
		{"t_", "t_", "T", "t"},
		{"tbl_user_api_key", "tbl_", "UserAPIKey", "user_api_key"},
		{"t_sku_stock", "", "TSKUStock", "tsku_stock"},
		{"order_v2", "t_", "OrderV2", "order_v2"},
	}
	for _, tt := range tests {
		typ := TypeName(tt.table, tt.prefix)
		if typ != tt.typ || FileBase(typ) != tt.file {
			t.Errorf("TypeName(%q, %q) = %q, file %q; want %q, %q", tt.table, tt.prefix, typ, FileBase(typ), tt.typ, tt.file)
		}
	}
}

// TestNewDataErrors: every table the DAO cannot serve is refused with an
// error that names the table and what is missing.
func TestNewDataErrors(t *testing.T) {
	const cols = "version BIGINT UNSIGNED NOT NULL DEFAULT 0"
	tests := []struct {
		name, ddl, pkg string
		want           []string
	}{
		{"no primary key", "CREATE TABLE t_a (id BIGINT, " + cols + ")", "p",
			[]string{"t_a", "no primary key", "single-column integer primary key"}},
		{"composite primary key", "CREATE TABLE t_a (a INT, b INT, " + cols + ", PRIMARY KEY (a, b))", "p",
			[]string{"t_a", "composite primary key (a, b)"}},
		{"string primary key", "CREATE TABLE t_a (code VARCHAR(8) PRIMARY KEY, " + cols + ")", "p",
			[]string{"t_a", "primary key code is varchar"}},
		{"no version column", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, stock INT NOT NULL)", "p",
			[]string{"t_a", `no version column "version"`}},
		{"nullable version", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, version BIGINT NULL)", "p",
			[]string{"t_a", "version column version must be a NOT NULL integer"}},
		{"string version", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, version VARCHAR(10) NOT NULL)", "p",
			[]string{"t_a", "must be a NOT NULL integer"}},
		{"decimal counter", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, balance DECIMAL(10,2) NOT NULL, " + cols + ")", "p",
			[]string{"t_a", "counter balance is decimal", "integer column"}},
		{"type named like a shared declaration", "CREATE TABLE t_metrics (id BIGINT PRIMARY KEY, " + cols + ")", "p",
			[]string{"t_metrics", `"Metrics"`}},
		{"two columns, one field", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, user_id INT, userID INT, " + cols + ")", "p",
			[]string{"t_a", "user_id and userID", "UserID"}},
		{"table outside ASCII", "CREATE TABLE t_库存_item (id BIGINT PRIMARY KEY, " + cols + ")", "p",
			[]string{"table t_库存_item:", `outside ASCII ("库存")`, "[gen] strip_prefix", `(it is "t_")`}},
		{"column outside ASCII", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, 库存 INT NOT NULL, " + cols + ")", "p",
			[]string{"t_a", "column 库存", `outside ASCII ("库存")`, "rename the column"}},
		{"column partly outside ASCII", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, stock_数量 INT NOT NULL, 数a量 INT, " + cols + ")", "p",
			[]string{"t_a", "column stock_数量", `("数量")`}},
		{"table name over 64", "CREATE TABLE t_" + strings.Repeat("a", 63) + " (id BIGINT PRIMARY KEY, " + cols + ")", "p",
			[]string{"table name t_" + strings.Repeat("a", 63) + " is 65 characters long", "limit of 64", "Error 1059"}},
		{"column name over 64", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, " + strings.Repeat("库", 65) + " INT, " + cols + ")", "p",
			[]string{"t_a", "column name " + strings.Repeat("库", 65) + " is 65 characters long", "limit of 64"}},
		{"index name over 64", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, stock INT, " + cols + ", KEY ix_" + strings.Repeat("s", 70) + " (stock))", "p",
			[]string{"t_a", "index name ix_" + strings.Repeat("s", 70) + " is 73 characters long", "limit of 64"}},
		{"constraint name over 64", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, stock INT, " + cols + ", CONSTRAINT chk_" + strings.Repeat("s", 62) + " CHECK (stock >= 0))", "p",
			[]string{"t_a", "constraint name chk_" + strings.Repeat("s", 62) + " is 66 characters long", "limit of 64"}},
		{"bad package", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, " + cols + ")", "my-dao",
			[]string{`"my-dao"`, "not a Go identifier"}},
		{"main package", "CREATE TABLE t_a (id BIGINT PRIMARY KEY, " + cols + ")", "main",
			[]string{"library package"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewData(tableOf(t, tt.ddl), Options{Package: tt.pkg})
			if err == nil {
				t.Fatal("NewData succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestNewDataLongestNames: names of exactly 64 characters, the longest the
// servers accept (counted in characters, not bytes), generate.
func TestNewDataLongestNames(t *testing.T) {
	table := "t_" + strings.Repeat("a", 62)
	ddl := "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, " + strings.Repeat("s", 64) + " INT NOT NULL, " +
		"`" + strings.Repeat("é", 64) + "` INT, version BIGINT NOT NULL DEFAULT 0, KEY ix_" + strings.Repeat("k", 61) + " (id), " +
		"CONSTRAINT chk_" + strings.Repeat("c", 60) + " CHECK (id > 0))"
	_, err := NewData(tableOf(t, ddl), Options{Package: "p"})
	if err == nil || !strings.Contains(err.Error(), "outside ASCII") {
		t.Errorf("NewData = %v, want only the column outside ASCII refused", err)
	}
	ddl = strings.Replace(ddl, "`"+strings.Repeat("é", 64)+"` INT, ", "", 1)
	if _, err := NewData(tableOf(t, ddl), Options{Package: "p"}); err != nil {
		t.Errorf("NewData of names 64 characters long: %v", err)
	}
}

func TestNewDataUnsupportedType(t *testing.T) {
	tbl := &schema.Table{Name: "t_geo", PrimaryKey: []string{"id"}, Columns: []*schema.Column{
		{Name: "id", Type: "bigint"}, {Name: "shape", Type: "geometry"}, {Name: "version", Type: "bigint"},
	}}
	_, err := NewData(tbl, Options{Package: "p"})
	if err == nil || !strings.Contains(err.Error(), `column shape has type "geometry"`) {
		t.Errorf("NewData = %v, want the unsupported type named", err)
	}
}

// TestNewDataChoices: which columns become counters, states, insert and
// update fields, from the policy or from explicit lists.
func TestNewDataChoices(t *testing.T) {
	tbl := tableOf(t, `CREATE TABLE t_x (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, stock INT NOT NULL,
		seats INT NOT NULL, status VARCHAR(8) NOT NULL, phase TINYINT NOT NULL,
		made_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, version INT NOT NULL DEFAULT 0)`)
	names := func(fs []*Field) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Column)
		}
		return out
	}
	type result struct {
		Counters, States, Insert, Update, ServerDefaults []string
		ArgTypes                                         []string
	}
	summarise := func(d *Data) result {
		var r result
		for _, c := range d.Counters {
			r.Counters = append(r.Counters, c.Field.Column)
		}
		for _, s := range d.States {
			r.States = append(r.States, s.Field.Column)
			r.ArgTypes = append(r.ArgTypes, s.ArgType)
		}
		r.Insert, r.Update, r.ServerDefaults = names(d.InsertFields), names(d.UpdateFields), d.ServerDefaults
		return r
	}
	tests := []struct {
		name string
		opts Options
		want result
	}{
		{"policy heuristics", Options{Package: "p"}, result{
			Counters: []string{"stock"}, States: []string{"status"}, ArgTypes: []string{"string"},
			Insert:         []string{"stock", "seats", "status", "phase", "version"},
			Update:         []string{"stock", "seats", "status", "phase", "made_at"},
			ServerDefaults: []string{"made_at"},
		}},
		{"explicit lists", Options{Package: "p", Counters: []string{"SEATS"}, States: []string{"phase"}}, result{
			Counters: []string{"seats"}, States: []string{"phase"}, ArgTypes: []string{"int64"},
			Insert:         []string{"stock", "seats", "status", "phase", "version"},
			Update:         []string{"stock", "seats", "status", "phase", "made_at"},
			ServerDefaults: []string{"made_at"},
		}},
		{"explicit empty lists", Options{Package: "p", Counters: []string{}, States: []string{}}, result{
			Insert:         []string{"stock", "seats", "status", "phase", "version"},
			Update:         []string{"stock", "seats", "status", "phase", "made_at"},
			ServerDefaults: []string{"made_at"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewData(tbl, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summarise(d)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := NewData(tbl, Options{Package: "p", Counters: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), "no counter column nope") {
		t.Errorf("unknown explicit counter: %v", err)
	}
}

func TestLockDefaults(t *testing.T) {
	pol := policy.Default()
	pol.Lock.TTL.Duration = time.Millisecond
	tbl := tableOf(t, "CREATE TABLE t_a (id BIGINT PRIMARY KEY, version INT NOT NULL DEFAULT 0)")
	if _, err := NewData(tbl, Options{Package: "p", Policy: pol}); err == nil || !strings.Contains(err.Error(), "[lock] ttl 1ms") {
		t.Errorf("1ms TTL: %v, want refused", err)
	}
	pol = policy.Default()
	d, err := NewData(tbl, Options{Package: "p", Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	want := Lock{TTL: 3 * time.Second, Wait: 500 * time.Millisecond, MaxAttempts: 3, BackoffMin: 20 * time.Millisecond, BackoffMax: 100 * time.Millisecond}
	if diff := cmp.Diff(want, d.Lock); diff != "" {
		t.Errorf("lock defaults (-want +got):\n%s", diff)
	}
}

func TestStatements(t *testing.T) {
	tbl := tableOf(t, "CREATE TABLE `order` (`key` BIGINT PRIMARY KEY, qty INT NOT NULL, `status` VARCHAR(8) NOT NULL, version INT NOT NULL DEFAULT 0)")
	pol := policy.Default()
	d, err := NewData(tbl, Options{Package: "p", Policy: pol, Counters: []string{"qty"}})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{d.SQL.Get, d.SQL.Exists, d.SQL.Insert, d.SQL.UpdateCAS,
		d.Counters[0].SQLRead, d.Counters[0].SQLDeduct, d.Counters[0].SQLDeductCAS, d.States[0].SQLTransition}
	want := []string{
		"SELECT `key`, `qty`, `status`, `version` FROM `order` WHERE `key` = ?",
		"SELECT 1 FROM `order` WHERE `key` = ?",
		"INSERT INTO `order` (`key`, `qty`, `status`, `version`) VALUES (?, ?, ?, ?)",
		"UPDATE `order` SET `qty` = ?, `status` = ?, `version` = `version` + 1 WHERE `key` = ? AND `version` = ?",
		"SELECT `qty`, `version` FROM `order` WHERE `key` = ?",
		"UPDATE `order` SET `qty` = `qty` - ?, `version` = `version` + 1 WHERE `key` = ? AND `qty` >= ?",
		"UPDATE `order` SET `qty` = `qty` - ?, `version` = `version` + 1 WHERE `key` = ? AND `version` = ? AND `qty` >= ?",
		"UPDATE `order` SET `status` = ?, `version` = `version` + 1 WHERE `key` = ? AND `status` = ?",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}
	if d.AutoIncrement {
		t.Error("a key without AUTO_INCREMENT is not AutoIncrement")
	}
}
