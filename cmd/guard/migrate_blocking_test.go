package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// stockRows is the size of the acceptance test's table: above its
// max_blocking_rows (100000), well below the default (1000000).
const stockRows = 200000

// The acceptance test of issue 24's live half, on a throwaway MariaDB:
// a blocking ADD CHECK on a 200,000-row table with max_blocking_rows =
// 100000 is refused with exit 3 before anything runs (version unchanged,
// not dirty); --dry-run shows COPY, "blocks writes" and the row count;
// the same file marked for pt-osc applies while a writer inserts and
// updates, and no row is lost (count and checksum before and after,
// the writer's own rows accounted for).
func TestMigrateBlockingCheckOnBigTable(t *testing.T) {
	db := dbtest.MySQL(t)
	pw := db.Password
	dir := writeMigrations(t, map[string]string{
		"000001_create.up.sql":   "CREATE TABLE t_stock (id INT PRIMARY KEY, sku VARCHAR(32) NOT NULL, qty INT NOT NULL);",
		"000001_create.down.sql": "DROP TABLE t_stock;",
		"000002_check.up.sql":    "ALTER TABLE t_stock ADD CONSTRAINT chk_t_stock_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED;\n",
		"000002_check.down.sql":  "ALTER TABLE t_stock DROP CONSTRAINT chk_t_stock_qty_nonneg;",
	})
	config := filepath.Join(t.TempDir(), "policies.toml")
	if err := os.WriteFile(config, []byte("version = 1\n\n[migrate]\nmax_blocking_rows = 100000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--dsn", db.DSN, "--dir", dir, "--config", config}
	check := filepath.Join(dir, "000002_check.up.sql")

	guardMigrate(t, pw, append([]string{"goto"}, append(flags, "1")...)...).expect(t, "goto 1", exitClean, nil, nil)
	db.Exec(t, fmt.Sprintf("INSERT INTO t_stock SELECT seq, CONCAT('sku-', seq), 10 FROM seq_1_to_%d", stockRows),
		// The statistics of a table in use, not those of a bulk load
		// seconds old (information_schema's sizes come from them).
		"ANALYZE TABLE t_stock")
	expectVersion(t, db, 1)

	// The dry run: the statement's cost, the table's rows, the refusal
	// to come, and its exit code.
	r := guardMigrate(t, pw, append([]string{"up", "--dry-run"}, flags...)...)
	r.expect(t, "up --dry-run", exitRuntime, []string{
		"dry run: version 1, MariaDB",
		check + ":1", "t_stock", "COPY", "SHARED", "blocks writes", fmt.Sprint(stockRows), "MiB",
		"blocks writes on 200000 rows, above max_blocking_rows 100000",
		"COPY: ADD CHECK validates every row",
		"max_blocking_rows: 100000 rows",
		"the run would be refused: " + check + ":1: the statement blocks writes to t_stock",
	}, nil)
	r = guardMigrate(t, pw, append([]string{"up", "--dry-run", "--format", "json"}, flags...)...)
	r.expect(t, "up --dry-run --format json", exitRuntime, nil, nil)
	var doc struct {
		DryRun   bool `json:"dry_run"`
		ExitCode int  `json:"exit_code"`
		Target   struct {
			Statements []struct {
				File, Table, Algorithm, Lock string
				BlocksWrites                 bool `json:"blocks_writes"`
				Rows                         int64
				RowsExact                    bool `json:"rows_exact"`
				Bytes                        int64
			}
			Refusals []struct{ Code int }
		}
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("dry run json: %v\n%s", err, dbtest.Redact(r.out))
	}
	if st := doc.Target.Statements; !doc.DryRun || doc.ExitCode != exitRuntime || len(st) != 1 || st[0].Algorithm != "COPY" || st[0].Lock != "SHARED" ||
		!st[0].BlocksWrites || st[0].Rows != stockRows || !st[0].RowsExact || st[0].Bytes <= 0 || len(doc.Target.Refusals) != 1 || doc.Target.Refusals[0].Code != exitRuntime {
		t.Errorf("dry run json: %+v", doc)
	}
	expectVersion(t, db, 1)

	// The run: refused before anything runs, naming file, table, rows,
	// size and both ways out.
	guardMigrate(t, pw, append([]string{"up"}, flags...)...).expect(t, "up over max_blocking_rows", exitRuntime, nil, []string{
		check + ":1: the statement blocks writes to t_stock for its whole run (ALGORITHM=COPY, LOCK=SHARED: ADD CHECK validates every row), and t_stock holds 200000 rows (",
		"MiB), above [migrate] max_blocking_rows = 100000; nothing was applied",
		"`-- guard:osc pt-osc`", "--allow-blocking",
	})
	expectVersion(t, db, 1)
	// What refuses it is the limit: --allow-blocking, or the default limit,
	// would let the copy run (checked dry, so as not to copy it twice).
	guardMigrate(t, pw, append([]string{"up", "--dry-run", "--allow-blocking"}, flags...)...).expect(t, "dry run --allow-blocking", exitClean,
		[]string{"blocks writes", "the run would start"}, nil)
	guardMigrate(t, pw, "up", "--dry-run", "--dsn", db.DSN, "--dir", dir).expect(t, "dry run with the default limit", exitClean,
		[]string{"max_blocking_rows: 1000000 rows", "the run would start"}, nil)

	// The same file marked for pt-osc: the dry run says writes go on.
	if err := os.WriteFile(check, []byte("-- guard:osc pt-osc\nALTER TABLE t_stock ADD CONSTRAINT chk_t_stock_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	guardMigrate(t, pw, append([]string{"up", "--dry-run"}, flags...)...).expect(t, "dry run with pt-osc", exitClean,
		[]string{"no (pt-osc)", "the run would start"}, nil)

	before := stockChecksum(t, db)
	if want := expectedChecksum(nil, nil); before != want {
		t.Fatalf("checksum before: %+v, want %+v: the test's formula does not match the server's", before, want)
	}
	// The writer: single-row updates of the existing rows and inserts of
	// its own, each counted only when it succeeded. It uses the text
	// protocol: a server-side prepared statement can fail at the swap
	// (README: pt-osc section).
	// Each write runs to its end (no context to cancel it mid-way), so
	// that every one counted is one made and every one made is counted.
	ctx := context.Background()
	var stop atomic.Bool
	var mu sync.Mutex
	updates := map[int]int{}
	var inserted []int
	var writes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		next := stockRows
		for !stop.Load() {
			var err error
			if rand.IntN(4) == 0 {
				next++
				if _, err = db.SQL.ExecContext(ctx, fmt.Sprintf("INSERT INTO t_stock VALUES (%d, 'w-%d', 1)", next, next)); err == nil {
					mu.Lock()
					inserted = append(inserted, next)
					mu.Unlock()
				}
			} else {
				id := rand.IntN(stockRows) + 1
				if _, err = db.SQL.ExecContext(ctx, fmt.Sprintf("UPDATE t_stock SET qty = qty + 1 WHERE id = %d", id)); err == nil {
					mu.Lock()
					updates[id]++
					mu.Unlock()
				}
			}
			if err != nil {
				t.Errorf("concurrent write: %v", err)
				return
			}
			writes.Add(1)
		}
	}()
	r = guardMigrate(t, pw, append([]string{"up"}, flags...)...)
	stop.Store(true)
	wg.Wait()
	r.expect(t, "up through pt-osc", exitClean, []string{
		"running pt-online-schema-change --alter 'ADD CONSTRAINT",
		"applied " + check + " with pt-online-schema-change",
		"verified: t_stock: CHECK chk_t_stock_qty_nonneg",
		"version 1 -> 2",
	}, nil)
	expectVersion(t, db, 2)
	if writes.Load() == 0 {
		t.Error("the writer wrote nothing while the table was copied")
	}
	after := stockChecksum(t, db)
	if want := expectedChecksum(updates, inserted); after != want {
		t.Errorf("after the copy: %+v, want %+v (%d writes: %d inserts)", after, want, writes.Load(), len(inserted))
	}
	t.Logf("%d writes during the copy (%d inserts)", writes.Load(), len(inserted))
}

// checksum is a table's row count and the sum of its rows' CRC32.
type checksum struct {
	Rows int64
	Sum  uint64
}

func stockChecksum(t *testing.T, db *dbtest.DB) checksum {
	t.Helper()
	var c checksum
	if err := db.SQL.QueryRow("SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, sku, qty))) FROM t_stock").Scan(&c.Rows, &c.Sum); err != nil {
		t.Fatal(err)
	}
	return c
}

// expectedChecksum is the checksum of the loaded rows after the updates
// (count by id) and the inserted rows, computed here as the server does.
func expectedChecksum(updates map[int]int, inserted []int) checksum {
	var c checksum
	row := func(id int, sku string, qty int) {
		c.Rows++
		c.Sum += uint64(crc32.ChecksumIEEE([]byte(fmt.Sprintf("%d|%s|%d", id, sku, qty))))
	}
	for id := 1; id <= stockRows; id++ {
		row(id, fmt.Sprintf("sku-%d", id), 10+updates[id])
	}
	for _, id := range inserted {
		row(id, fmt.Sprintf("w-%d", id), 1)
	}
	return c
}

// expectVersion fails t unless schema_migrations holds version v, clean.
func expectVersion(t *testing.T, db *dbtest.DB, v int) {
	t.Helper()
	var got int
	var dirty bool
	if err := db.SQL.QueryRow("SELECT version, dirty FROM schema_migrations").Scan(&got, &dirty); err != nil || got != v || dirty {
		t.Errorf("version %d dirty %v (%v), want %d clean", got, dirty, err, v)
	}
}

// guard migrate finds a file merged below the applied version and
// refuses it with exit 2 before anything runs, naming GM008.
func TestMigrateOutOfOrder(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_a.up.sql": "CREATE TABLE t_a (id INT PRIMARY KEY);",
		"000003_c.up.sql": "CREATE TABLE t_c (id INT PRIMARY KEY);",
	})
	flags := []string{"--dsn", db.DSN, "--dir", dir}
	guardMigrate(t, db.Password, append([]string{"up"}, flags...)...).expect(t, "up", exitClean, []string{"version none -> 3"}, nil)
	late := filepath.Join(dir, "000002_b.up.sql")
	if err := os.WriteFile(late, []byte("CREATE TABLE t_b (id INT PRIMARY KEY);"), 0o644); err != nil {
		t.Fatal(err)
	}
	guardMigrate(t, db.Password, append([]string{"up"}, flags...)...).expect(t, "up with a late file", exitInput, nil, []string{
		"GM008 out-of-order: " + late + " (version 2) below the applied version 3 never ran",
		"Renumber it above the newest version of the directory (3)", "guard migrate force 3",
	})
	r := guardMigrate(t, db.Password, append([]string{"up", "--format", "json"}, flags...)...)
	r.expect(t, "up --format json with a late file", exitInput, []string{`"out_of_order": [`, `"version": 2`}, nil)
	expectVersion(t, db, 3)
	var n int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_b'").Scan(&n); err != nil || n != 0 {
		t.Errorf("t_b exists (%v)", err)
	}
	// Renumbered above the newest, it runs.
	if err := os.Rename(late, filepath.Join(dir, "000004_b.up.sql")); err != nil {
		t.Fatal(err)
	}
	guardMigrate(t, db.Password, append([]string{"up"}, flags...)...).expect(t, "up renumbered", exitClean, []string{"version 3 -> 4"}, nil)
}

// --dry-run and --allow-blocking belong to the subcommands that run
// migrations; a bad max_blocking_rows is exit 2 with its position.
func TestMigrateDryRunFlags(t *testing.T) {
	_, errOut, code := guard(t, "migrate", "--dry-run", "status", "--dsn", "u:p@tcp(127.0.0.1:1)/db")
	if code != exitInput || !strings.Contains(errOut, "--dry-run: migrate status applies nothing") {
		t.Errorf("--dry-run status: exit %d\n%s", code, errOut)
	}
	_, errOut, code = guard(t, "migrate", "version", "--allow-blocking", "--dsn", "u:p@tcp(127.0.0.1:1)/db")
	if code != exitInput || !strings.Contains(errOut, "--allow-blocking") {
		t.Errorf("version --allow-blocking: exit %d\n%s", code, errOut)
	}
	config := filepath.Join(t.TempDir(), "policies.toml")
	if err := os.WriteFile(config, []byte("version = 1\n[migrate]\nmax_blocking_rows = \"many\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = guard(t, "migrate", "up", "--dry-run", "--config", config, "--dsn", "u:p@tcp(127.0.0.1:1)/db")
	if code != exitInput || !strings.Contains(errOut, config+":3:21:") {
		t.Errorf("up with a bad max_blocking_rows: exit %d\n%s", code, errOut)
	}
	_, errOut, code = guard(t, "migrate", "up", "--dry-run", "--format", "sarif", "--dsn", "u:p@tcp(127.0.0.1:1)/db")
	if code != exitInput || !strings.Contains(errOut, `--format "sarif"`) {
		t.Errorf("up --dry-run --format sarif: exit %d\n%s", code, errOut)
	}
}
