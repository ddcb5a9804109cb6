package plan

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// livePlan plans db as guard plan --dsn does.
func livePlan(t *testing.T, db *dbtest.DB, strategy string) []Step {
	t.Helper()
	l, err := ReadLive(context.Background(), db.SQL, db.Name)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	steps := Plan(l.Schema, policy.Default(), l.Server, Options{Strategy: strategy, GlobalSQLMode: &l.GlobalSQLMode, Triggers: l.Triggers, Rows: l.Rows})
	var out []Step
	for _, st := range steps {
		// The server's own sql_mode is the business of TestLiveSQLMode.
		if st.Guard != GuardSQLMode {
			out = append(out, st)
		}
	}
	return out
}

// scalar runs a query returning one value.
func scalar(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	var v sql.NullString
	if err := db.QueryRow(query, args...).Scan(&v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("%s: %v", query, err)
	}
	return v.String
}

// wantError runs stmt and requires it to fail with the MySQL error number.
func wantError(t *testing.T, db *sql.DB, number uint16, sqlState, stmt string) {
	t.Helper()
	_, err := db.Exec(stmt)
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != number {
		t.Errorf("%s: error %v, want MySQL error %d", stmt, err, number)
		return
	}
	if sqlState != "" && string(me.SQLState[:]) != sqlState {
		t.Errorf("%s: SQLSTATE %s, want %s", stmt, me.SQLState[:], sqlState)
	}
}

// TestLiveGuards plans each kind of guard on a live table, applies the up
// statement, checks information_schema and the guard's effect, plans again
// (nothing left), applies the down statement and checks the guard is gone.
func TestLiveGuards(t *testing.T) {
	tests := []struct {
		name     string
		setup    []string
		strategy string
		guard    string
		// count is the query that returns 1 while the guard is there.
		count string
		// effect checks the guard works once applied.
		effect func(t *testing.T, db *sql.DB)
	}{
		{
			name:  "version column",
			setup: []string{"CREATE TABLE t_order (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL DEFAULT 'NEW')", "INSERT INTO t_order (id) VALUES (1), (2)"},
			guard: GuardVersionColumn,
			count: `SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_order'
  AND COLUMN_NAME = 'version' AND COLUMN_TYPE = 'bigint(20) unsigned' AND IS_NULLABLE = 'NO' AND COLUMN_DEFAULT = '0'`,
			effect: func(t *testing.T, db *sql.DB) {
				if v := scalar(t, db, "SELECT SUM(version) FROM t_order"); v != "0" {
					t.Errorf("versions of existing rows sum to %s, want 0", v)
				}
			},
		},
		{
			name: "NOT NULL keeps the type and the default",
			setup: []string{"CREATE TABLE t_wallet (id BIGINT PRIMARY KEY, balance DECIMAL(12,2) UNSIGNED NULL DEFAULT 1.50, version INT NOT NULL DEFAULT 0, CHECK (balance >= 0))",
				"INSERT INTO t_wallet (id, balance) VALUES (1, 3.25)"},
			guard: GuardNotNull,
			count: `SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_wallet'
  AND COLUMN_NAME = 'balance' AND COLUMN_TYPE = 'decimal(12,2) unsigned' AND IS_NULLABLE = 'NO' AND COLUMN_DEFAULT = '1.50'`,
			effect: func(t *testing.T, db *sql.DB) {
				wantError(t, db, 1048, "", "UPDATE t_wallet SET balance = NULL WHERE id = 1")
				if v := scalar(t, db, "SELECT balance FROM t_wallet WHERE id = 1"); v != "3.25" {
					t.Errorf("balance = %s after MODIFY, want 3.25", v)
				}
			},
		},
		{
			name:  "CHECK",
			setup: []string{"CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0)", "INSERT INTO t_inventory VALUES (1, 5, 0)"},
			guard: GuardCheck,
			count: `SELECT COUNT(*) FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 't_inventory'
  AND CONSTRAINT_NAME = 'chk_t_inventory_inventory_nonneg'`,
			effect: func(t *testing.T, db *sql.DB) {
				wantError(t, db, 4025, "23000", "UPDATE t_inventory SET inventory = inventory - 6 WHERE id = 1")
				if _, err := db.Exec("UPDATE t_inventory SET inventory = inventory - 5 WHERE id = 1"); err != nil {
					t.Errorf("a decrement to zero failed: %v", err)
				}
			},
		},
		{
			name:  "UNIQUE",
			setup: []string{"CREATE TABLE t_pay (id BIGINT PRIMARY KEY, pay_no VARCHAR(64) NOT NULL, KEY ix (pay_no))", "INSERT INTO t_pay VALUES (1, 'P1'), (2, 'P2')"},
			guard: GuardUnique,
			count: `SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_pay'
  AND INDEX_NAME = 'uk_t_pay_pay_no' AND NON_UNIQUE = 0 AND COLUMN_NAME = 'pay_no'`,
			effect: func(t *testing.T, db *sql.DB) {
				wantError(t, db, 1062, "23000", "INSERT INTO t_pay VALUES (3, 'P1')")
			},
		},
		{
			name:     "triggers",
			setup:    []string{"CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0)", "INSERT INTO t_stock VALUES (1, 2, 0)"},
			strategy: StrategyTrigger,
			guard:    GuardTrigger,
			count: `SELECT COUNT(*) = 2 FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 't_stock'
  AND TRIGGER_NAME IN ('trg_t_stock_stock_nonneg_bi', 'trg_t_stock_stock_nonneg_bu') AND ACTION_TIMING = 'BEFORE'`,
			effect: func(t *testing.T, db *sql.DB) {
				wantError(t, db, 1644, "45000", "UPDATE t_stock SET stock = stock - 3 WHERE id = 1")
				wantError(t, db, 1644, "45000", "INSERT INTO t_stock (id, stock) VALUES (2, -1)")
				if v := scalar(t, db, "SELECT stock FROM t_stock WHERE id = 1"); v != "2" {
					t.Errorf("stock = %s after a refused update, want 2", v)
				}
				if _, err := db.Exec("UPDATE t_stock SET stock = stock - 2 WHERE id = 1"); err != nil {
					t.Errorf("a decrement to zero failed: %v", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := dbtest.MySQL(t)
			db.Exec(t, tt.setup...)
			var steps []Step
			for _, st := range livePlan(t, db, tt.strategy) {
				if st.Guard == tt.guard {
					steps = append(steps, st)
				}
			}
			if len(steps) == 0 {
				t.Fatalf("no %s step planned", tt.guard)
			}
			if steps[0].Rows < 0 {
				t.Errorf("live step without a row count: %+v", steps[0])
			}
			for _, st := range steps {
				if _, err := db.SQL.Exec(st.Up); err != nil {
					t.Fatalf("up %s: %v", st.Up, err)
				}
			}
			if got := scalar(t, db.SQL, tt.count); got != "1" {
				t.Fatalf("after up, %s = %s, want 1", tt.count, got)
			}
			tt.effect(t, db.SQL)
			for _, st := range livePlan(t, db, tt.strategy) {
				if st.Guard == tt.guard {
					t.Errorf("planned again after up: %+v", st)
				}
			}
			for i := len(steps) - 1; i >= 0; i-- {
				if _, err := db.SQL.Exec(steps[i].Down); err != nil {
					t.Fatalf("down %s: %v", steps[i].Down, err)
				}
			}
			if got := scalar(t, db.SQL, tt.count); got != "0" {
				t.Errorf("after down, %s = %s, want 0", tt.count, got)
			}
			var back []Step
			for _, st := range livePlan(t, db, tt.strategy) {
				if st.Guard == tt.guard {
					back = append(back, st)
				}
			}
			if len(back) != len(steps) {
				t.Errorf("after down, plan gives %d %s steps, want %d", len(back), tt.guard, len(steps))
			}
		})
	}
}

// TestLiveSQLMode plans a strict global sql_mode on a lax server, applies it
// as root, and rolls it back.
func TestLiveSQLMode(t *testing.T) {
	db := dbtest.MySQL(t)
	root := db.Server().Root()
	before := scalar(t, root, "SELECT @@GLOBAL.sql_mode")
	t.Cleanup(func() {
		if _, err := root.Exec("SET GLOBAL sql_mode = ?", before); err != nil {
			t.Error(err)
		}
	})
	if _, err := root.Exec("SET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION'"); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLive(context.Background(), db.SQL, db.Name)
	if err != nil {
		t.Fatal(err)
	}
	steps := Plan(l.Schema, policy.Default(), l.Server, Options{GlobalSQLMode: &l.GlobalSQLMode})
	if len(steps) != 1 || steps[0].Guard != GuardSQLMode || !strings.HasPrefix(steps[0].Up, "SET GLOBAL ") {
		t.Fatalf("steps = %+v", steps)
	}
	if _, err := root.Exec(steps[0].Up); err != nil {
		t.Fatal(err)
	}
	if got := scalar(t, root, "SELECT @@GLOBAL.sql_mode"); got != "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION" {
		t.Errorf("after up, global sql_mode = %q", got)
	}
	l, err = ReadLive(context.Background(), db.SQL, db.Name)
	if err != nil {
		t.Fatal(err)
	}
	if again := Plan(l.Schema, policy.Default(), l.Server, Options{GlobalSQLMode: &l.GlobalSQLMode}); len(again) != 0 {
		t.Errorf("planned again: %+v", again)
	}
	if _, err := root.Exec(steps[0].Down); err != nil {
		t.Fatal(err)
	}
	if got := scalar(t, root, "SELECT @@GLOBAL.sql_mode"); got != "NO_ENGINE_SUBSTITUTION" {
		t.Errorf("after down, global sql_mode = %q", got)
	}
}

// TestCountRows checks that blocking steps get an exact row count.
func TestCountRows(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, "CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL DEFAULT 0)",
		"INSERT INTO t_inventory (id) VALUES (1), (2), (3)")
	steps := livePlan(t, db, StrategyCheck)
	if err := CountRows(context.Background(), db.SQL, steps); err != nil {
		t.Fatal(err)
	}
	var checks int
	for _, st := range steps {
		if st.BlocksWrites {
			checks++
			if st.Rows != 3 {
				t.Errorf("%s: rows = %d, want 3", st.Name, st.Rows)
			}
		}
	}
	if checks != 1 {
		t.Errorf("%d blocking steps, want the CHECK", checks)
	}
}

// TestLiveColumnCheckSurvivesNotNull: on MariaDB, the MODIFY that makes a
// counter NOT NULL drops its column-level CHECK; the plan puts a CHECK back
// after it, and the server ends with both guards.
func TestLiveColumnCheckSurvivesNotNull(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, "CREATE TABLE t_member (id BIGINT PRIMARY KEY, points INT NULL DEFAULT 0 CHECK (points >= 0), version INT NOT NULL DEFAULT 0)",
		"INSERT INTO t_member (id, points) VALUES (1, 10)")
	steps := livePlan(t, db, StrategyCheck)
	var got []string
	for _, st := range steps {
		got = append(got, st.Guard)
		if _, err := db.SQL.Exec(st.Up); err != nil {
			t.Fatalf("up %s: %v", st.Up, err)
		}
	}
	if strings.Join(got, ",") != "not-null,check" {
		t.Fatalf("steps %v, want not-null then check", got)
	}
	if n := scalar(t, db.SQL, `SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
  AND TABLE_NAME = 't_member' AND COLUMN_NAME = 'points' AND IS_NULLABLE = 'NO'`); n != "1" {
		t.Error("points is still NULLable")
	}
	wantError(t, db.SQL, 4025, "23000", "UPDATE t_member SET points = points - 11 WHERE id = 1")
	if again := livePlan(t, db, StrategyCheck); len(again) != 0 {
		t.Errorf("planned again: %+v", again)
	}
}

func TestReadLiveUnknownDatabase(t *testing.T) {
	db := dbtest.MySQL(t)
	if _, err := ReadLive(context.Background(), db.SQL, db.Name+"_typo"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("ReadLive of a missing database: %v", err)
	}
	l, err := ReadLive(context.Background(), db.SQL, db.Name)
	if err != nil || len(l.Schema.Tables) != 0 {
		t.Errorf("ReadLive of an empty database: %v, %v", l, err)
	}
}
