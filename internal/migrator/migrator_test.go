package migrator

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestMain stops the throwaway servers of the package's tests.
func TestMain(m *testing.M) { dbtest.Main(m) }

// writeDir writes files (name -> content) into a fresh directory.
func writeDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// open returns a Migrator on db over dir.
func open(t testing.TB, db *dbtest.DB, dir string, opts Options) *Migrator {
	t.Helper()
	cfg, err := mysql.ParseDSN(db.DSN)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	opts.Dir = dir
	m, err := Open(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// state reads schema_migrations directly.
func state(t testing.TB, db *dbtest.DB) State {
	t.Helper()
	var s State
	err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&s.Version, &s.Dirty)
	var me *mysql.MySQLError
	if errors.Is(err, sql.ErrNoRows) || errors.As(err, &me) && me.Number == errNoSuchTable {
		return State{Version: -1}
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// constraints lists the CHECK constraints, indexes and triggers of the test
// database as "check:table.name", "unique:table.name(cols)", "index:…",
// "trigger:name" and the nullable columns as "null:table.col", sorted.
func constraints(t testing.TB, db *dbtest.DB) []string {
	t.Helper()
	var out []string
	queries := []string{
		`SELECT CONCAT('check:', TABLE_NAME, '.', CONSTRAINT_NAME, ' ', CHECK_CLAUSE) FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`,
		`SELECT CONCAT(IF(NON_UNIQUE = 0, 'unique:', 'index:'), TABLE_NAME, '.', INDEX_NAME, '(', GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX), ')')
		 FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? GROUP BY TABLE_NAME, INDEX_NAME, NON_UNIQUE`,
		`SELECT CONCAT('trigger:', TRIGGER_NAME, ' ', ACTION_TIMING, ' ', EVENT_MANIPULATION, ' ', EVENT_OBJECT_TABLE) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?`,
		`SELECT CONCAT('column:', TABLE_NAME, '.', COLUMN_NAME, ' ', COLUMN_TYPE, ' ', IS_NULLABLE) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME <> 'schema_migrations'`,
	}
	for _, q := range queries {
		rows, err := db.SQL.Query(q, db.Name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	sort.Strings(out)
	return out
}

// shopFiles is a realistic directory: a table, its rows, then one guard per
// file as guard plan writes them, each with its down file.
var shopFiles = map[string]string{
	"000001_create_inventory.up.sql": `CREATE TABLE t_inventory (
  id        BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
  sku       VARCHAR(64) NOT NULL,
  inventory INT         NULL DEFAULT 0
) ENGINE=InnoDB;`,
	"000001_create_inventory.down.sql": "DROP TABLE t_inventory;",
	"000002_seed.up.sql":               "INSERT INTO t_inventory (sku, inventory) VALUES ('a', 5), ('b', 0), ('c', 7);",
	"000002_seed.down.sql":             "DELETE FROM t_inventory WHERE sku IN ('a', 'b', 'c');",
	"000003_guard_t_inventory_inventory_not_null.up.sql": "-- counters must not be NULL\n" +
		"ALTER TABLE t_inventory MODIFY inventory INT NOT NULL DEFAULT 0, ALGORITHM=COPY;",
	"000003_guard_t_inventory_inventory_not_null.down.sql": "ALTER TABLE t_inventory MODIFY inventory INT NULL DEFAULT 0, ALGORITHM=COPY;",
	"000004_guard_t_inventory_version.up.sql":              "ALTER TABLE t_inventory ADD COLUMN version BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT;",
	"000004_guard_t_inventory_version.down.sql":            "ALTER TABLE t_inventory DROP COLUMN version;",
	"000005_guard_t_inventory_inventory_check.up.sql": "-- guard:ignore GM003 adding a CHECK validates every row\n" +
		"ALTER TABLE t_inventory ADD CONSTRAINT chk_t_inventory_inventory_nonneg CHECK (inventory >= 0), ALGORITHM=COPY;",
	"000005_guard_t_inventory_inventory_check.down.sql": "ALTER TABLE t_inventory DROP CONSTRAINT chk_t_inventory_inventory_nonneg;",
	"000006_guard_t_inventory_sku_unique.up.sql":        "ALTER TABLE t_inventory ADD UNIQUE INDEX uk_t_inventory_sku (sku), ALGORITHM=INPLACE, LOCK=NONE;",
	"000006_guard_t_inventory_sku_unique.down.sql":      "ALTER TABLE t_inventory DROP INDEX uk_t_inventory_sku;",
	"000007_guard_t_inventory_trigger.up.sql": `CREATE TRIGGER trg_t_inventory_inventory_nonneg_bu BEFORE UPDATE ON t_inventory FOR EACH ROW
BEGIN
  IF NEW.inventory < 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'guard: t_inventory.inventory must not be negative';
  END IF;
END;`,
	"000007_guard_t_inventory_trigger.down.sql": "DROP TRIGGER trg_t_inventory_inventory_nonneg_bu;",
}

func TestApplyVerifyAndRollBack(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, shopFiles)
	var log strings.Builder
	m := open(t, db, dir, Options{Log: &log})
	ctx := context.Background()

	res, err := m.Goto(ctx, 2)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if got, want := res.To, (State{Version: 2}); got != want {
		t.Errorf("goto 2: state %v, want %v", got, want)
	}
	before := constraints(t, db)

	res, err = m.Up(ctx)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	var applied []uint
	for _, a := range res.Applied {
		applied = append(applied, a.Version)
	}
	if d := cmp.Diff([]uint{3, 4, 5, 6, 7}, applied); d != "" {
		t.Errorf("applied (-want +got):\n%s", d)
	}
	if got := state(t, db); got != (State{Version: 7}) {
		t.Errorf("schema_migrations = %v, want 7", got)
	}
	var probes []string
	for _, p := range res.Preflight {
		probes = append(probes, p.Status+" "+p.Guard.String())
	}
	wantProbes := []string{
		"ok t_inventory: inventory NOT NULL",
		"ok t_inventory: CHECK chk_t_inventory_inventory_nonneg (`inventory`>=0)",
		"ok t_inventory: UNIQUE uk_t_inventory_sku (`sku`)",
	}
	if d := cmp.Diff(wantProbes, probes); d != "" {
		t.Errorf("preflight (-want +got):\n%s", d)
	}
	var verified []string
	for _, v := range res.Verified {
		verified = append(verified, v.Status+" "+v.Guard.String())
	}
	wantVerified := []string{
		"verified t_inventory: inventory NOT NULL",
		"verified t_inventory: column version NOT NULL",
		"verified t_inventory: CHECK chk_t_inventory_inventory_nonneg (`inventory`>=0)",
		"verified t_inventory: UNIQUE uk_t_inventory_sku (`sku`)",
		"verified t_inventory: trigger trg_t_inventory_inventory_nonneg_bu BEFORE UPDATE",
	}
	if d := cmp.Diff(wantVerified, verified); d != "" {
		t.Errorf("verified (-want +got):\n%s", d)
	}
	if !strings.Contains(log.String(), "applied "+filepath.Join(dir, "000005_guard_t_inventory_inventory_check.up.sql")) {
		t.Errorf("log lacks the applied check file:\n%s", log.String())
	}
	after := constraints(t, db)
	for _, want := range []string{
		"check:t_inventory.chk_t_inventory_inventory_nonneg `inventory` >= 0",
		"unique:t_inventory.uk_t_inventory_sku(sku)",
		"trigger:trg_t_inventory_inventory_nonneg_bu BEFORE UPDATE t_inventory",
		"column:t_inventory.inventory int(11) NO",
		"column:t_inventory.version bigint(20) unsigned NO",
	} {
		if !contains(after, want) {
			t.Errorf("information_schema lacks %q:\n%s", want, strings.Join(after, "\n"))
		}
	}
	// The trigger fires before the CHECK: SIGNAL 45000 is error 1644.
	_, err = db.SQL.Exec("UPDATE t_inventory SET inventory = inventory - 6 WHERE sku = 'a'")
	if me := (*mysql.MySQLError)(nil); !errors.As(err, &me) || me.Number != 1644 {
		t.Errorf("negative update: err = %v, want error 1644 from the trigger", err)
	}

	// Roll back the guards: the schema is as it was at version 2.
	res, err = m.Down(ctx, 5)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if res.To != (State{Version: 2}) || len(res.Applied) != 5 || res.Applied[0].Version != 7 || res.Applied[0].Up {
		t.Errorf("down 5: to %v, applied %+v", res.To, res.Applied)
	}
	if d := cmp.Diff(before, constraints(t, db)); d != "" {
		t.Errorf("schema after down 5 differs from version 2 (-want +got):\n%s", d)
	}
	// And all the way down.
	if _, err := m.Down(ctx, 2); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if got := state(t, db); got.Version != -1 || got.Dirty {
		t.Errorf("after down 2: %v, want no version", got)
	}
	if _, err := m.Down(ctx, 1); !errors.Is(err, ErrTooFewApplied) {
		t.Errorf("down 1 at no version: err = %v, want ErrTooFewApplied", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestNoChangeIsSuccess(t *testing.T) {
	db := dbtest.MySQL(t)
	m := open(t, db, writeDir(t, shopFiles), Options{})
	ctx := context.Background()
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	res, err := m.Up(ctx)
	if err != nil {
		t.Fatalf("second up: %v", err)
	}
	if len(res.Applied) != 0 || res.From != res.To || res.To != (State{Version: 7}) {
		t.Errorf("second up: %+v", res)
	}
	if _, err := m.Goto(ctx, 7); err != nil {
		t.Errorf("goto the current version: %v", err)
	}
	if _, err := m.Goto(ctx, 42); !errors.Is(err, ErrNoSuchVersion) {
		t.Errorf("goto 42: err = %v, want ErrNoSuchVersion", err)
	}
}

func TestExampleShopUpAndDown(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := filepath.Join("..", "..", "examples", "shop", "migrations")
	m := open(t, db, dir, Options{})
	ctx := context.Background()
	res, err := m.Up(ctx)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	last := m.Migrations()[len(m.Migrations())-1].Version
	if res.To != (State{Version: int(last)}) || len(res.Applied) != len(m.Migrations()) {
		t.Errorf("up: to %v after %d files, want %d after %d", res.To, len(res.Applied), last, len(m.Migrations()))
	}
	for _, v := range res.Verified {
		if v.Status != VerifyPresent {
			t.Errorf("%s: %s (%s)", v.Guard, v.Status, v.Note)
		}
	}
	if len(res.Verified) == 0 {
		t.Error("nothing verified: the example creates UNIQUE keys and CHECKs")
	}
	if _, err := m.Down(ctx, len(m.Migrations())); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	var n int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME NOT IN ('schema_migrations', ?)", db.Name, HistoryTable).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d tables left after down", n)
	}
}

// copyMigrations copies the golang-migrate files of dirs into one directory.
func copyMigrations(t *testing.T, extra map[string]string, dirs ...string) string {
	t.Helper()
	files := map[string]string{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sql") {
				files[e.Name()] = readFile(t, filepath.Join(d, e.Name()))
			}
		}
	}
	for k, v := range extra {
		files[k] = v
	}
	return writeDir(t, files)
}

// TestGuardPlanMigrations applies the reference migrations guard plan wrote
// for the example shop on top of the shop's own: refused while rows break
// them, applied and verified once the rows are fixed, rolled back by their
// down files. A trigger file in guard plan's form is applied the same way
// and rejects a negative update.
func TestGuardPlanMigrations(t *testing.T) {
	db := dbtest.MySQL(t)
	trigger := map[string]string{
		"000010_guard_t_product_stock_nonneg_bu.up.sql": "CREATE TRIGGER `trg_t_product_stock_nonneg_bu` BEFORE UPDATE ON `t_product` FOR EACH ROW\n" +
			"IF NEW.`stock` < 0 THEN\n  SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'guard: t_product.stock must not be negative';\nEND IF",
		"000010_guard_t_product_stock_nonneg_bu.down.sql": "DROP TRIGGER `trg_t_product_stock_nonneg_bu`",
	}
	dir := copyMigrations(t, trigger, filepath.Join("..", "..", "examples", "shop", "migrations"), filepath.Join("..", "..", "migrations"))
	m := open(t, db, dir, Options{})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 6); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t,
		"INSERT INTO t_inventory (product_id, warehouse_id, inventory) VALUES (1, 1, 10), (2, 1, -4)",
		"INSERT INTO t_order (order_no, user_id, product_id, item_count, amount) VALUES ('A1', 1, 1, 1, 9.90), ('A1', 2, 1, 1, 9.90), ('B2', 1, 1, 1, 1.00)",
		"INSERT INTO t_product (sku, name, stock) VALUES ('p1', 'pen', 3)")
	before := constraints(t, db)

	_, err := m.Up(ctx)
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("up over bad rows: err = %v, want a refusal", err)
	}
	var failed []string
	for _, p := range refused.Probes {
		if p.Status == StatusFail {
			failed = append(failed, p.Guard.String()+": "+p.Verdict())
		}
	}
	want := []string{
		"t_inventory: CHECK chk_t_inventory_inventory_nonneg (`inventory`>=0): 1 row breaks it",
		"t_order: UNIQUE uk_t_order_order_no (`order_no`): 1 duplicate value held by 2 rows",
	}
	if d := cmp.Diff(want, failed); d != "" {
		t.Errorf("refused (-want +got):\n%s", d)
	}
	if d := cmp.Diff(before, constraints(t, db)); d != "" || state(t, db) != (State{Version: 6}) {
		t.Errorf("refusal changed the database (version %v):\n%s", state(t, db), d)
	}

	db.Exec(t, "UPDATE t_inventory SET inventory = 0 WHERE inventory < 0", "UPDATE t_order SET order_no = 'A1-2' WHERE user_id = 2")
	res, err := m.Up(ctx)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	var verified []string
	for _, v := range res.Verified {
		verified = append(verified, v.Status+" "+v.Guard.String())
	}
	wantVerified := []string{
		"verified t_inventory: column version NOT NULL",
		"verified t_inventory: CHECK chk_t_inventory_inventory_nonneg (`inventory`>=0)",
		"verified t_order: UNIQUE uk_t_order_order_no (`order_no`)",
		"verified t_product: trigger trg_t_product_stock_nonneg_bu BEFORE UPDATE",
	}
	if d := cmp.Diff(wantVerified, verified); d != "" {
		t.Errorf("verified (-want +got):\n%s", d)
	}
	// The guards reject what they guard: the trigger with SIGNAL (1644),
	// the CHECK with MariaDB's 4025, the UNIQUE index with 1062.
	for stmt, number := range map[string]uint16{
		"UPDATE t_product SET stock = stock - 5 WHERE sku = 'p1'":                                              1644,
		"UPDATE t_inventory SET inventory = inventory - 1 WHERE product_id = 2":                                4025,
		"INSERT INTO t_order (order_no, user_id, product_id, item_count, amount) VALUES ('B2', 3, 1, 1, 1.00)": 1062,
	} {
		_, err := db.SQL.Exec(stmt)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != number {
			t.Errorf("%s: err = %v, want error %d", stmt, err, number)
		}
	}
	if _, err := m.Down(ctx, 4); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if d := cmp.Diff(before, constraints(t, db)); d != "" {
		t.Errorf("down 4 left the schema different from version 6 (-want +got):\n%s", d)
	}
}
