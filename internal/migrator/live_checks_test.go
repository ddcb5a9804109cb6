package migrator

import (
	"context"
	"errors"
	"github.com/guard-sql/guard/internal/schema"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// Narrowing a column, or NOT NULL on a nullable one, is counted against
// the rows before anything runs: a value that does not fit, or a NULL,
// refuses the run, naming the table, column, count and a sample key.
// Without preflight the same file fails at the server part-way and leaves
// the version dirty.
func TestNarrowingPreflight(t *testing.T) {
	db := dbtest.MySQL(t)
	files := map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_item (id INT PRIMARY KEY, sku VARCHAR(20) NOT NULL, qty INT NOT NULL, price DECIMAL(8,2) NOT NULL, note VARCHAR(20) NULL, kind ENUM('a','b','c') NULL);",
		"000002_narrow.up.sql": "ALTER TABLE t_item MODIFY sku VARCHAR(5) NOT NULL, MODIFY qty TINYINT UNSIGNED NOT NULL, " +
			"MODIFY price DECIMAL(4,2) NOT NULL, MODIFY note VARCHAR(40) NOT NULL, MODIFY kind ENUM('a','b') NULL, ALGORITHM=COPY;",
	}
	m := open(t, db, writeDir(t, files), Options{})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "INSERT INTO t_item VALUES (1, 'abc', 5, 1.50, 'x', 'a'), (2, 'abcdefgh', -1, 99.99, NULL, NULL), (3, 'abcdef', 300, 123.45, 'y', 'b'), (4, 'ab', 7, 99.994, 'z', 'c')")
	_, err := m.Up(ctx)
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("up: %v, want a preflight refusal", err)
	}
	got := map[string]string{}
	for _, p := range refused.Probes {
		var samples []string
		for _, s := range p.Samples {
			samples = append(samples, s.String())
		}
		got[p.Guard.String()] = p.Status + ": " + p.Verdict() + " [" + strings.Join(samples, "; ") + "]"
	}
	want := map[string]string{
		"t_item: sku fits varchar(5)":       "fail: 2 rows hold values that do not fit varchar(5) [id=2 sku=abcdefgh; id=3 sku=abcdef]",
		"t_item: qty fits tinyint unsigned": "fail: 2 rows hold values that do not fit tinyint unsigned [id=2 qty=-1; id=3 qty=300]",
		"t_item: price fits decimal(4,2)":   "fail: 1 row holds a value that does not fit decimal(4,2) [id=3 price=123.45]",
		"t_item: note NOT NULL":             "fail: 1 row breaks it [id=2 note=NULL]",
		"t_item: kind fits enum('a','b')":   "fail: 1 row holds a value that does not fit enum('a','b') [id=4 kind=c]",
		"t_item: sku NOT NULL":              "ok: no existing row breaks it []",
		"t_item: qty NOT NULL":              "ok: no existing row breaks it []",
		"t_item: price NOT NULL":            "ok: no existing row breaks it []",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("probes (-want +got):\n%s", d)
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s after the refusal, want 1 clean", st)
	}
	// The unguarded run: the server gives up part-way and the version is dirty.
	m2 := open(t, db, m.opts.Dir, Options{SkipPreflight: true})
	var dirty *DirtyError
	if _, err := m2.Up(ctx); !errors.As(err, &dirty) {
		t.Errorf("up without preflight: %v, want a dirty failure", err)
	}
}

// A file merged below the applied version (GM008's live half) is refused
// before anything runs, naming it, its version and the applied one; plain
// golang-migrate would pass over it for good. Forcing the applied version
// records it as applied, the way out when its changes were made by hand.
func TestOutOfOrderRefused(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"000001_a.up.sql": "CREATE TABLE t_a (id INT PRIMARY KEY);",
		"000003_c.up.sql": "CREATE TABLE t_c (id INT PRIMARY KEY);",
	})
	m := open(t, db, dir, Options{})
	ctx := context.Background()
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if err := os.WriteFile(filepath.Join(dir, "000002_b.up.sql"), []byte("CREATE TABLE t_b (id INT PRIMARY KEY);"), 0o644); err != nil {
		t.Fatal(err)
	}
	m = open(t, db, dir, Options{})
	// golang-migrate's own view: nothing pending, 2 taken for applied.
	st, err := m.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Migrations[1].State != StateApplied {
		t.Fatalf("status of 2: %s; the test assumes golang-migrate takes it for applied", st.Migrations[1].State)
	}
	_, err = m.Up(ctx)
	var oe *OutOfOrderError
	if !errors.As(err, &oe) || len(oe.Files) != 1 || oe.Files[0].Version != 2 || oe.Applied != 3 {
		t.Fatalf("up: %v, want GM008 naming version 2 below 3", err)
	}
	for _, want := range []string{"GM008 out-of-order", filepath.Join(dir, "000002_b.up.sql") + " (version 2)", "applied version 3", "guard migrate force 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if st := state(t, db); st != (State{Version: 3}) {
		t.Errorf("version %s, want 3 clean", st)
	}
	d, err := m.DryRun(ctx, UpOp())
	if err != nil || !errors.As(d.Err(), &oe) {
		t.Errorf("dry run: %v / %v, want the out-of-order refusal", err, d.Err())
	}
	if _, err := m.Force(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if res, err := m.Up(ctx); err != nil || len(res.Applied) != 0 {
		t.Errorf("up after force 3: %v, %+v, want no change", err, res)
	}
}

// The history starts from golang-migrate's version on a database guard
// never migrated, and follows what another tool applied or undid: none of
// it is out of order.
func TestReconcileHistory(t *testing.T) {
	ms := []Migration{{Version: 1, Up: "1.up.sql"}, {Version: 2, Up: "2.up.sql"}, {Version: 3, Up: "3.up.sql"}, {Version: 5, Up: "5.up.sql"}}
	set := func(vs ...uint) map[uint]bool {
		out := map[uint]bool{}
		for _, v := range vs {
			out[v] = true
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		st    State
		h     history
		want  map[uint]bool
		order []uint
	}{
		{"fresh database", State{Version: -1}, history{}, set(), nil},
		{"no history yet", State{Version: 3}, history{}, set(1, 2, 3), nil},
		{"recorded", State{Version: 3}, history{exists: true, versions: set(1, 2, 3)}, set(1, 2, 3), nil},
		{"a branch merged below", State{Version: 3}, history{exists: true, versions: set(1, 3)}, set(1, 3), []uint{2}},
		{"another tool went up", State{Version: 5}, history{exists: true, versions: set(1, 2)}, set(1, 2, 3, 5), nil},
		{"another tool went up past a gap", State{Version: 5}, history{exists: true, versions: set(1, 3)}, set(1, 3, 5), []uint{2}},
		{"another tool went down", State{Version: 2}, history{exists: true, versions: set(1, 2, 3, 5)}, set(1, 2), nil},
		{"empty history, then another tool", State{Version: 2}, history{exists: true, versions: set()}, set(1, 2), nil},
	} {
		got := reconcile(ms, tc.st, tc.h)
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s: applied (-want +got):\n%s", tc.name, d)
		}
		var order []uint
		if e := outOfOrder("m", ms, tc.st, got); e != nil {
			for _, f := range e.Files {
				order = append(order, f.Version)
			}
		}
		if d := cmp.Diff(tc.order, order); d != "" {
			t.Errorf("%s: out of order (-want +got):\n%s", tc.name, d)
		}
	}
}

// A statement that blocks writes on a table above MaxBlockingRows is
// refused before anything runs; one that does not block (an online index
// build) runs; AllowBlocking, or no limit, lets the blocking one run.
func TestMaxBlockingRows(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql":  "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL);",
		"000002_index.up.sql":   "ALTER TABLE t_stock ADD INDEX ix_qty (qty), ALGORITHM=INPLACE, LOCK=NONE;",
		"000003_check.up.sql":   "ALTER TABLE t_stock ADD CONSTRAINT chk_qty CHECK (qty >= 0), ALGORITHM=COPY;",
		"000003_check.down.sql": "ALTER TABLE t_stock DROP CONSTRAINT chk_qty;",
	})
	ctx := context.Background()
	if _, err := open(t, db, dir, Options{}).Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "INSERT INTO t_stock SELECT seq, 1 FROM seq_1_to_50")
	m := open(t, db, dir, Options{MaxBlockingRows: 10})
	_, err := m.Up(ctx)
	var be *BlockingError
	if !errors.As(err, &be) || len(be.Impacts) != 1 || be.Impacts[0].Rows != 50 || !be.Impacts[0].RowsExact {
		t.Fatalf("up: %v, want the CHECK refused for blocking writes on 50 rows", err)
	}
	for _, want := range []string{"000003_check.up.sql:1", "blocks writes to t_stock", "ALGORITHM=COPY, LOCK=SHARED", "holds 50 rows", "max_blocking_rows = 10",
		"-- guard:osc pt-osc", "--allow-blocking"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s after the refusal, want 1 clean: nothing may run before it", st)
	}
	if _, err := open(t, db, dir, Options{MaxBlockingRows: 10}).Goto(ctx, 2); err != nil {
		t.Errorf("goto 2 (an online index): %v", err)
	}
	if _, err := open(t, db, dir, Options{MaxBlockingRows: 10, AllowBlocking: true}).Up(ctx); err != nil {
		t.Errorf("up --allow-blocking: %v", err)
	}
	// No limit: the blocking statement runs.
	if _, err := open(t, db, dir, Options{}).Goto(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, db, dir, Options{}).Up(ctx); err != nil {
		t.Errorf("up with no limit: %v", err)
	}
}

// A dry run on a database guard never touched writes nothing: no
// schema_migrations, no history, no table.
func TestDryRunWritesNothing(t *testing.T) {
	db := dbtest.MySQL(t)
	m := open(t, db, writeDir(t, map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL);",
		"000002_check.up.sql":  "ALTER TABLE t_stock ADD CONSTRAINT chk_qty CHECK (qty >= 0), ALGORITHM=COPY;",
	}), Options{MaxBlockingRows: 10})
	d, err := m.DryRun(context.Background(), UpOp())
	if err != nil || d.Err() != nil {
		t.Fatalf("dry run: %v %v", err, d.Err())
	}
	if len(d.Statements) != 2 || d.Statements[0].Algorithm != schema.AlgorithmNone || d.Statements[1].Algorithm != schema.AlgorithmCopy || !d.Statements[1].BlocksWrites {
		t.Errorf("statements %+v", d.Statements)
	}
	var n int
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d tables after a dry run (%v), want none", n, err)
	}
}
