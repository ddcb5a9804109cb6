package migrator

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// badRows is a table whose rows break every guard of refusedFiles.
var badRows = []string{
	`CREATE TABLE t_stock (
	  id      BIGINT      NOT NULL PRIMARY KEY,
	  sku     VARCHAR(32) NULL,
	  shop    INT         NOT NULL,
	  qty     INT         NULL,
	  note    VARCHAR(64) NULL
	)`,
	`INSERT INTO t_stock VALUES
	  (1, 'a', 1, 5, NULL), (2, 'a', 1, -2, NULL), (3, 'b', 1, -1, NULL), (4, 'b', 1, NULL, NULL),
	  (5, 'b', 1, 3, NULL), (6, 'c', 1, 0, NULL), (7, NULL, 1, 1, NULL), (8, NULL, 1, 1, NULL), (9, 'c', 2, 1, NULL)`,
}

var refusedFiles = map[string]string{
	"000001_create.up.sql":   "CREATE TABLE t_log (id INT NOT NULL PRIMARY KEY);",
	"000001_create.down.sql": "DROP TABLE t_log;",
	"000002_check.up.sql":    "ALTER TABLE t_stock ADD CONSTRAINT chk_qty CHECK (qty >= 0), ALGORITHM=COPY;",
	"000002_check.down.sql":  "ALTER TABLE t_stock DROP CONSTRAINT chk_qty;",
	"000003_unique.up.sql":   "CREATE UNIQUE INDEX uk_sku ON t_stock (sku, shop);",
	"000003_unique.down.sql": "DROP INDEX uk_sku ON t_stock;",
	"000004_notnull.up.sql":  "ALTER TABLE t_stock\n  MODIFY qty INT NOT NULL DEFAULT 0;",
	"000005_ok.up.sql":       "ALTER TABLE t_stock ADD UNIQUE KEY uk_id_shop (id, shop), ADD CONSTRAINT chk_shop CHECK (shop > 0);",
}

func TestPreflightRefusalChangesNothing(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, badRows...)
	dir := writeDir(t, refusedFiles)
	m := open(t, db, dir, Options{})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	before := constraints(t, db)

	res, err := m.Up(ctx)
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("up: err = %v, want a RefusedError", err)
	}
	if len(res.Applied) != 0 || res.To != (State{Version: 1}) {
		t.Errorf("refused up applied %v, state %v", res.Applied, res.To)
	}
	if got := state(t, db); got != (State{Version: 1}) {
		t.Errorf("schema_migrations = %v, want 1", got)
	}
	if d := cmp.Diff(before, constraints(t, db)); d != "" {
		t.Errorf("refused up changed the schema (-before +after):\n%s", d)
	}

	type verdict struct {
		File    string
		Line    int
		Guard   string
		Status  string
		Rows    int64
		Groups  int64
		Samples []string
	}
	var got []verdict
	for _, p := range refused.Probes {
		v := verdict{File: p.Guard.File[len(dir)+1:], Line: p.Guard.Line, Guard: p.Guard.String(), Status: p.Status, Rows: p.Rows, Groups: p.Groups}
		for _, s := range p.Samples {
			v.Samples = append(v.Samples, s.String())
		}
		got = append(got, v)
	}
	want := []verdict{
		{"000002_check.up.sql", 1, "t_stock: CHECK chk_qty (`qty`>=0)", StatusFail, 2, 0, []string{"id=2 qty=-2", "id=3 qty=-1"}},
		// NULL keys never collide: (NULL, 1) twice is no duplicate.
		{"000003_unique.up.sql", 1, "t_stock: UNIQUE uk_sku (`sku`, `shop`)", StatusFail, 5, 2, []string{"sku=b shop=1 (3 rows)", "sku=a shop=1 (2 rows)"}},
		{"000004_notnull.up.sql", 1, "t_stock: qty NOT NULL", StatusFail, 1, 0, []string{"id=4 qty=NULL"}},
		{"000005_ok.up.sql", 1, "t_stock: UNIQUE uk_id_shop (`id`, `shop`)", StatusOK, 0, 0, nil},
		{"000005_ok.up.sql", 1, "t_stock: CHECK chk_shop (`shop`>0)", StatusOK, 0, 0, nil},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
	var text strings.Builder
	WriteProbes(&text, refused.Probes)
	for _, line := range []string{
		"preflight FAIL: " + dir + "/000002_check.up.sql:1:1: t_stock: CHECK chk_qty (`qty`>=0): 2 rows break it",
		"    id=2 qty=-2",
		"preflight FAIL: " + dir + "/000003_unique.up.sql:1:1: t_stock: UNIQUE uk_sku (`sku`, `shop`): 2 duplicate values held by 5 rows",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("report lacks %q:\n%s", line, text.String())
		}
	}

	// --skip-preflight applies anyway, and the server refuses the CHECK:
	// golang-migrate leaves version 2 dirty.
	m2 := open(t, db, dir, Options{SkipPreflight: true})
	_, err = m2.Up(ctx)
	var dirty *DirtyError
	if !errors.As(err, &dirty) || dirty.Version != 2 || dirty.Force != 1 || !dirty.Up {
		t.Fatalf("up --skip-preflight: err = %v, want version 2 dirty", err)
	}
}

func TestPreflightSkipsWhatItCannotPredict(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, badRows...)
	files := map[string]string{
		// Rows fixed before the CHECK: the run's preflight cannot tell; the
		// preflight of the step, once the fix ran, finds no bad row.
		"000001_fix.up.sql":   "UPDATE t_stock SET qty = 0 WHERE qty < 0 OR qty IS NULL;",
		"000002_check.up.sql": "ALTER TABLE t_stock ADD CONSTRAINT chk_qty CHECK (qty >= 0);",
		// A table created in the same file has no rows yet.
		"000003_new.up.sql": "CREATE TABLE t_new (id INT PRIMARY KEY, n INT, k INT);\nALTER TABLE t_new ADD CONSTRAINT chk_n CHECK (n >= 0);",
		// A column added in the same file: no step runs in between.
		"000004_col.up.sql": "ALTER TABLE t_stock ADD COLUMN reserved INT NOT NULL DEFAULT 0, ADD CONSTRAINT chk_reserved CHECK (reserved >= 0);",
	}
	m := open(t, db, writeDir(t, files), Options{})
	res, err := m.Up(context.Background())
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	var got []string
	for _, p := range res.Preflight {
		got = append(got, p.Status+" "+p.Guard.String()+": "+p.Verdict())
	}
	want := []string{
		"ok t_stock: CHECK chk_qty (`qty`>=0): no existing row breaks it",
		"skipped t_new: CHECK chk_n (`n`>=0): not checked: the table is created or replaced by " + m.opts.Dir + "/000003_new.up.sql:1 in this run: no existing rows",
		"skipped t_stock: CHECK chk_reserved (`reserved`>=0): not checked: column reserved is added or renamed by " + m.opts.Dir + "/000004_col.up.sql:1 in this run",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
}

func TestPreflightFollowsRenamesAndAddedColumns(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, badRows...)
	files := map[string]string{
		"000001_col.up.sql":    "ALTER TABLE t_stock ADD COLUMN reserved INT NULL, ADD CONSTRAINT chk_reserved CHECK (reserved >= 0);",
		"000002_rename.up.sql": "RENAME TABLE t_stock TO t_stock2;",
		"000003_unique.up.sql": "ALTER TABLE t_stock2 ADD UNIQUE INDEX uk_sku (sku), ALGORITHM=INPLACE, LOCK=NONE;",
	}
	m := open(t, db, writeDir(t, files), Options{})
	res, err := m.Up(context.Background())
	if !errors.As(err, new(*RefusedError)) {
		t.Fatalf("up: err = %v, want the duplicate sku refused", err)
	}
	var got []string
	for _, p := range res.Preflight {
		got = append(got, p.Status+" "+p.Guard.String()+": "+p.Verdict())
	}
	want := []string{
		"skipped t_stock: CHECK chk_reserved (`reserved`>=0): not checked: column reserved is added or renamed by " + m.opts.Dir + "/000001_col.up.sql:1 in this run",
		"fail t_stock2: UNIQUE uk_sku (`sku`): 3 duplicate values held by 7 rows",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
	if got := state(t, db); got.Version != -1 {
		t.Errorf("version %v after a refusal", got)
	}
}

// TestPreflightUniqueFollowsCollation: a UNIQUE index compares keys in the
// column's collation, and so does preflight.
func TestPreflightUniqueFollowsCollation(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		"CREATE TABLE t_code (id INT PRIMARY KEY, ci VARCHAR(8) COLLATE utf8mb4_general_ci, bin VARCHAR(8) COLLATE utf8mb4_bin, long_name VARCHAR(32))",
		"INSERT INTO t_code VALUES (1, 'Ab', 'Ab', 'prefix-one'), (2, 'aB ', 'aB', 'prefix-two'), (3, 'x', 'x', 'other')")
	files := map[string]string{
		"1_ci.up.sql":     "ALTER TABLE t_code ADD UNIQUE INDEX uk_ci (ci);",
		"2_bin.up.sql":    "ALTER TABLE t_code ADD UNIQUE INDEX uk_bin (bin);",
		"3_prefix.up.sql": "ALTER TABLE t_code ADD UNIQUE INDEX uk_prefix (long_name(6));",
	}
	m := open(t, db, writeDir(t, files), Options{})
	res, err := m.Up(context.Background())
	if !errors.As(err, new(*RefusedError)) {
		t.Fatalf("up: err = %v, want a refusal", err)
	}
	var got []string
	for _, p := range res.Preflight {
		got = append(got, p.Status+" "+p.Guard.String()+": "+p.Verdict())
	}
	want := []string{
		"fail t_code: UNIQUE uk_ci (`ci`): 1 duplicate value held by 2 rows",
		"ok t_code: UNIQUE uk_bin (`bin`): no existing row breaks it",
		"fail t_code: UNIQUE uk_prefix (LEFT(`long_name`, 6)): 1 duplicate value held by 2 rows",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
	// The server agrees: with preflight skipped, the first index fails.
	_, err = open(t, db, m.opts.Dir, Options{SkipPreflight: true}).Up(context.Background())
	var dirty *DirtyError
	if !errors.As(err, &dirty) || dirty.Version != 1 {
		t.Errorf("up --skip-preflight: err = %v, want version 1 dirty (duplicate key)", err)
	}
}

// A down file written against a CHECK constraint's name (as guard plan
// writes them) meets the constraint renamed (as pt-online-schema-change
// left it before guard kept the names): the server would drop chk_shelf,
// then refuse DROP CONSTRAINT chk_qty and leave the version dirty.
// Preflight refuses the run before anything runs, naming the file, the
// constraint, the table and what it has; likewise an up file dropping an
// index the table lacks, while names the run itself adds are known.
func TestPreflightRefusesMissingNames(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql":   "CREATE TABLE t_stock (id INT PRIMARY KEY, sku VARCHAR(16) NOT NULL, qty INT NOT NULL, shelf INT NOT NULL DEFAULT 0,\n  UNIQUE KEY uk_sku (sku), CONSTRAINT chk_qty CHECK (qty >= 0));",
		"000001_create.down.sql": "DROP TABLE t_stock;",
		"000002_shelf.up.sql":    "ALTER TABLE t_stock ADD CONSTRAINT chk_shelf CHECK (shelf >= 0);",
		"000002_shelf.down.sql":  "ALTER TABLE t_stock DROP CONSTRAINT chk_shelf;\nALTER TABLE t_stock DROP CONSTRAINT chk_qty;",
		"000003_index.up.sql": "CREATE INDEX ix_shelf ON t_stock (shelf);\nALTER TABLE t_stock RENAME INDEX ix_shelf TO ix_shelf2;\n" +
			"DROP INDEX ix_shelf2 ON t_stock;\nALTER TABLE t_stock DROP INDEX uk_skus;",
	})
	ctx := context.Background()
	m := open(t, db, dir, Options{})
	if _, err := m.Goto(ctx, 2); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "ALTER TABLE t_stock DROP CONSTRAINT chk_qty, ADD CONSTRAINT _chk_qty CHECK (qty >= 0)")
	before := constraints(t, db)

	for _, tc := range []struct {
		name string
		run  func() (*Result, error)
		want MissingName
	}{
		// Line 1 drops chk_shelf: line 2 meets the table without it.
		{"down", func() (*Result, error) { return m.Down(ctx, 1) },
			MissingName{File: filepath.Join(dir, "000002_shelf.down.sql"), Line: 2, Column: 1, Table: "t_stock", Op: "DROP CONSTRAINT", Name: "chk_qty",
				Kind: "constraint", Has: []string{"CHECK _chk_qty", "index PRIMARY", "index uk_sku"}}},
		{"up", func() (*Result, error) { return m.Up(ctx) },
			MissingName{File: filepath.Join(dir, "000003_index.up.sql"), Line: 4, Column: 1, Table: "t_stock", Op: "DROP INDEX", Name: "uk_skus",
				Kind: "index", Has: []string{"PRIMARY", "uk_sku"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.run()
			var missing *MissingNameError
			if !errors.As(err, &missing) {
				t.Fatalf("%s: err = %v, want a MissingNameError", tc.name, err)
			}
			if d := cmp.Diff([]MissingName{tc.want}, missing.Missing); d != "" {
				t.Errorf("missing names (-want +got):\n%s", d)
			}
			for _, part := range []string{tc.want.File + ":" + fmt.Sprint(tc.want.Line) + ":1: " + tc.want.Op + " " + tc.want.Name,
				"table t_stock has no " + tc.want.Kind + " named " + tc.want.Name, "it has: " + strings.Join(tc.want.Has, ", "), "nothing was applied"} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q lacks %q", err, part)
				}
			}
			if len(res.Applied) != 0 || state(t, db) != (State{Version: 2}) {
				t.Errorf("refused %s applied %v, version %s; want nothing, 2 clean", tc.name, res.Applied, state(t, db))
			}
			if d := cmp.Diff(before, constraints(t, db)); d != "" {
				t.Errorf("refused %s changed the schema (-before +after):\n%s", tc.name, d)
			}
		})
	}
	// The dry run says so too.
	d, err := m.DryRun(ctx, UpOp())
	var missing *MissingNameError
	if err != nil || !errors.As(d.Err(), &missing) {
		t.Errorf("dry run: %v, refusals %v; want the missing index", err, d.Refusals)
	}
}

// A guard left not checked by the run's preflight is printed once: where
// the reason lies in its own file (the column it checks is added by the
// statement before it), the preflight of its step cannot check it either,
// says nothing again, and the run's preflight does not promise it will.
// Where the reason lies in an earlier step, the step's preflight checks it
// and prints that verdict.
func TestPreflightSkippedPrintedOnce(t *testing.T) {
	db := dbtest.MySQL(t)
	for _, tc := range []struct {
		name, file, want string
	}{
		{"reason in its own file",
			"ALTER TABLE t_a ADD COLUMN qty INT NOT NULL DEFAULT 0;\nALTER TABLE t_a ADD CONSTRAINT chk_a CHECK (qty >= 0);",
			"not checked: the table is created or replaced by "},
		{"reason in an earlier file", "ALTER TABLE t_a ADD CONSTRAINT chk_a CHECK (id >= 0);", "preflight ok: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			dir := writeDir(t, map[string]string{
				"000001_create.up.sql": "CREATE TABLE t_a (id INT PRIMARY KEY);",
				"000002_check.up.sql":  tc.file,
			})
			if _, err := open(t, db, dir, Options{Log: &log}).Up(context.Background()); err != nil {
				t.Fatal(dbtest.Redact(err.Error()))
			}
			db.Exec(t, "DROP TABLE t_a", "DROP TABLE schema_migrations", "DROP TABLE "+HistoryTable)
			if n := strings.Count(log.String(), "preflight skipped: "); n != 1 {
				t.Errorf("%d lines say preflight skipped, want 1:\n%s", n, log.String())
			}
			if !strings.Contains(log.String(), tc.want) {
				t.Errorf("log lacks %q:\n%s", tc.want, log.String())
			}
			promised := strings.Contains(log.String(), recheckNote)
			if wantPromise := tc.want == "preflight ok: "; promised != wantPromise {
				t.Errorf("the log promises a check right before the migration: %v, want %v:\n%s", promised, wantPromise, log.String())
			}
		})
	}
}
