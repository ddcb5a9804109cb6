package drill

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestViewKeepsGuards checks on the real server what the drill rests on: a
// single-table view is updatable, the base table's CHECK still refuses a
// negative stock through it (4025 on MariaDB, 3819 on MySQL), and SELECT …
// FOR UPDATE through it locks the base row.
func TestViewKeepsGuards(t *testing.T) {
	_, pool := newDB(t, stockTable,
		`INSERT INTO t_stock (id, sku, stock, price) VALUES (1, 'a', 2, 1.00)`,
		"CREATE ALGORITHM = MERGE VIEW v AS SELECT `id` AS `id`, `stock` AS `stock`, `version` AS `version` FROM t_stock")
	ctx := context.Background()
	res, err := pool.ExecContext(ctx, "UPDATE v SET stock = stock - 1, version = version + 1 WHERE id = 1 AND stock >= 1")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("UPDATE through the view changed %d rows, want 1", n)
	}
	_, err = pool.ExecContext(ctx, "UPDATE v SET stock = stock - 5 WHERE id = 1")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || (me.Number != 4025 && me.Number != 3819) {
		t.Fatalf("UPDATE through the view to a negative stock: %v, want CHECK violated (4025 or 3819)", err)
	}
	var stock, version int64
	if err := pool.QueryRowContext(ctx, "SELECT stock, version FROM t_stock WHERE id = 1").Scan(&stock, &version); err != nil {
		t.Fatal(err)
	}
	if stock != 1 || version != 1 {
		t.Errorf("base row holds %d at version %d, want 1 at 1", stock, version)
	}

	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM v WHERE id = 1 FOR UPDATE").Scan(&stock); err != nil {
		t.Fatal(err)
	}
	conn, err := pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET SESSION innodb_lock_wait_timeout = 1"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = conn.ExecContext(ctx, "UPDATE t_stock SET stock = stock + 1 WHERE id = 1")
	if !errors.As(err, &me) || me.Number != 1205 {
		t.Errorf("writing a row locked FOR UPDATE through the view: %v after %v, want lock wait timeout 1205", err, time.Since(start))
	}
}

// TestRefusals names what keeps a table from being drilled, with exit code
// 2 material: no table, no or a composite or a non-integer primary key, no
// counter or several, a bad --column or version column, a column the seed
// cannot fill. Nothing is left behind.
func TestRefusals(t *testing.T) {
	db, pool := newDB(t,
		`CREATE TABLE t_nopk (stock INT NOT NULL) ENGINE=InnoDB`,
		`CREATE TABLE t_composite (a INT, b INT, stock INT NOT NULL, PRIMARY KEY (a, b))`,
		`CREATE TABLE t_textpk (code VARCHAR(8) PRIMARY KEY, stock INT NOT NULL)`,
		`CREATE TABLE t_nocounter (id INT PRIMARY KEY, name VARCHAR(8))`,
		`CREATE TABLE t_twocounters (id INT PRIMARY KEY, stock INT NOT NULL, points INT NOT NULL)`,
		`CREATE TABLE t_decimal (id INT PRIMARY KEY, balance DECIMAL(10,2) NOT NULL)`,
		`CREATE TABLE t_badversion (id INT PRIMARY KEY, stock INT NOT NULL, version VARCHAR(8))`,
		`CREATE TABLE t_geo (id INT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0, spot POINT NOT NULL)`,
		`CREATE TABLE t_checked (id INT PRIMARY KEY, stock INT NOT NULL, status VARCHAR(8) NOT NULL CHECK (status IN ('new', 'old')))`,
		`CREATE TABLE t_tiny (id INT PRIMARY KEY, stock TINYINT NOT NULL)`,
		`CREATE VIEW v_stock AS SELECT id, stock FROM t_twocounters`,
	)
	for _, tt := range []struct {
		table, column, want string
	}{
		{"t_missing", "", "no base table t_missing"},
		{"v_stock", "", "no base table v_stock"},
		{"t_nopk", "", "no primary key"},
		{"t_composite", "", "primary key is composite (a, b)"},
		{"t_textpk", "", "primary key code is varchar(8)"},
		{"t_nocounter", "", "no counter column"},
		{"t_twocounters", "", "several counter columns (stock, points): pick one with --column"},
		{"t_twocounters", "nope", "no column nope"},
		{"t_twocounters", "id", "id is its primary key"},
		{"t_decimal", "", "counter balance is decimal(10,2)"},
		{"t_badversion", "", "version column version is varchar(8)"},
		{"t_geo", "", "column spot is point, which the drill cannot seed"},
		{"t_checked", "", "the copy refused the rows the drill seeds"},
		{"t_tiny", "", "check that --stock fits the counter"},
	} {
		t.Run(tt.table+"/"+tt.column, func(t *testing.T) {
			_, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Table: tt.table, Column: tt.column,
				Rows: 1, Stock: 1000, Workers: 2, Strategies: []Strategy{Conditional}})
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: %v, want a refusal saying %q", err, tt.want)
			}
		})
	}
	if got := scratchObjects(t, db); len(got) != 0 {
		t.Errorf("scratch objects left after refusals: %v", got)
	}
}

// TestSeedsAnyTable drills a table without a version column, whose other
// columns the seed must fill: NOT NULL without a default, unique, of many
// types, and generated ones it must leave alone.
func TestSeedsAnyTable(t *testing.T) {
	db, pool := newDB(t, `CREATE TABLE t_wallet (
		wallet_id INT UNSIGNED NOT NULL PRIMARY KEY,
		owner VARCHAR(6) NOT NULL,
		pay_no CHAR(12) NOT NULL DEFAULT '',
		balance BIGINT NOT NULL CHECK (balance >= 0),
		opened DATE NOT NULL,
		seen DATETIME NOT NULL,
		stamp TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
		span TIME NOT NULL,
		born YEAR NOT NULL,
		meta JSON NOT NULL,
		kind ENUM('a','b') NOT NULL,
		flags SET('x','y') NOT NULL,
		note TEXT NOT NULL,
		ratio DOUBLE NOT NULL,
		amount DECIMAL(12,2) NOT NULL,
		doubled BIGINT AS (balance * 2) VIRTUAL,
		UNIQUE KEY uk_owner (owner)
	)`, `INSERT INTO t_wallet (wallet_id, owner, balance, opened, seen, span, born, meta, kind, flags, note, ratio, amount)
		VALUES (1, 'alice', 5, '2024-01-01', '2024-01-01 00:00:00', '00:00:00', 2024, '{}', 'a', 'x', 'n', 1, 1)`)
	before := checksum(t, db, "t_wallet")
	rep, err := Run(context.Background(), Options{DB: pool, Database: db.Name, Table: "t_wallet",
		Rows: 40, Stock: 3, Workers: 20, Strategies: []Strategy{Conditional, CAS}})
	if err != nil {
		t.Fatal(err)
	}
	checkGuards(t, rep, true)
	if !rep.VersionAdded || rep.Version != "version" || rep.Counter != "balance" || rep.PrimaryKey != "wallet_id" {
		t.Errorf("columns: key %s, counter %s, version %s (added %v)", rep.PrimaryKey, rep.Counter, rep.Version, rep.VersionAdded)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "no version column version") {
		t.Errorf("notes do not say the version column was added: %q", rep.Notes)
	}
	if after := checksum(t, db, "t_wallet"); after != before {
		t.Errorf("t_wallet changed: checksum %d, was %d", after, before)
	}
	if got := scratchObjects(t, db); len(got) != 0 {
		t.Errorf("scratch objects left: %v", got)
	}
}
