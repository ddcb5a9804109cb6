package schema

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/sqlparse"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// conformanceFolders are the migration folders whose schema both builders
// must agree on: every rule fixture, the example project, and the shapes
// under testdata/conformance/migrations that the fixtures leave out.
func conformanceFolders(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "lint", "rules", "testdata", "*", "migrations"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, filepath.Join("..", "..", "examples", "shop", "migrations"))
	own, err := filepath.Glob(filepath.Join("testdata", "conformance", "migrations", "*"))
	if err != nil || len(own) == 0 {
		t.Fatalf("no folder under testdata/conformance/migrations: %v", err)
	}
	dirs = append(dirs, own...)
	if len(dirs) < 10 {
		t.Fatalf("found %d migration folders, want the rule fixtures: is the test run from internal/schema?", len(dirs))
	}
	return dirs
}

// minAppliedShare is the share of folders MariaDB must accept: fixtures made
// to be refused (an ALTER of a table the migrations never created) are few.
const minAppliedShare = 0.8

// TestConformance applies every migration folder to a fresh MariaDB database
// and requires FromInformationSchema to equal FromDDL, table for table.
func TestConformance(t *testing.T) {
	dirs := conformanceFolders(t)
	applied := 0
	for _, dir := range dirs {
		name := strings.TrimPrefix(filepath.ToSlash(dir), "../../")
		t.Run(name, func(t *testing.T) {
			db := dbtest.MySQL(t)
			if stmt, err := applyMigrations(db, dir); err != nil {
				t.Logf("skipped: MariaDB refuses %q: %v", stmt, err)
				return
			}
			applied++
			offline, errs, err := LoadMigrations(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Errorf("FromDDL: %v (MariaDB ran the statement)", e)
			}
			live, srv, err := FromInformationSchema(context.Background(), db.SQL, db.Name)
			if err != nil {
				t.Fatal(err)
			}
			if srv.Flavor != FlavorMariaDB {
				t.Errorf("flavor of %q is %v", srv.Version, srv.Flavor)
			}
			if diff := conformanceDiff(offline, live); diff != "" {
				t.Errorf("FromDDL and FromInformationSchema differ (-ddl +live):\n%s", diff)
			}
		})
	}
	if share := float64(applied) / float64(len(dirs)); share < minAppliedShare {
		t.Errorf("MariaDB applied %d of %d folders (%.0f%%), want at least %.0f%%", applied, len(dirs), share*100, minAppliedShare*100)
	}
}

// applyMigrations runs the up files of dir in version order, one statement
// at a time; it returns the first statement the server refuses.
func applyMigrations(db *dbtest.DB, dir string) (string, error) {
	files, err := ListMigrations(dir)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if !f.Up {
			continue
		}
		b, err := os.ReadFile(f.Path)
		if err != nil {
			return "", err
		}
		for _, piece := range sqlparse.Split(string(b)) {
			if _, err := db.SQL.Exec(piece.Text); err != nil {
				return fmt.Sprintf("%s: %s", filepath.Base(f.Path), strings.TrimSpace(piece.Text)), err
			}
		}
	}
	return "", nil
}

// conformanceDiff compares an offline schema with a live one. Where they
// cannot agree by construction, the offline side is brought to what the
// server knows: a table has no creation position live, and a table declared
// without ENGINE has the server's default engine, InnoDB (the model keeps
// Engine empty offline so that rules can tell "not declared" apart; the
// live model always knows the engine, and a missing one there is a
// difference). The model gives no meaning to an empty list as opposed to
// none (a table whose only index was dropped). Extra options (see
// anyIndexOrder) loosen what a flavor's rows cannot tell.
func conformanceDiff(offline, live *Schema, opts ...cmp.Option) string {
	want := New()
	for _, t := range offline.Tables {
		c := *t
		c.Created = Pos{}
		if c.Engine == "" {
			c.Engine = "InnoDB"
		}
		want.Add(&c)
	}
	return cmp.Diff(want, live, append(opts, cmpopts.EquateEmpty())...)
}

// anyIndexOrder compares the indexes of a table as a set. MySQL 8 serves
// STATISTICS from a view over its data dictionary which shows no key order,
// so indexes of the same kind cannot come in SHOW CREATE TABLE's order; no
// rule depends on that order.
var anyIndexOrder = cmpopts.SortSlices(func(a, b *Index) bool { return a.Name < b.Name })

// TestIntrospectQueryCount checks that reading a schema takes the same
// number of queries for 3 tables as for 30.
func TestIntrospectQueryCount(t *testing.T) {
	counts := map[int]int{}
	for _, n := range []int{3, 30} {
		db := dbtest.MySQL(t)
		var stmts []string
		for i := range n {
			stmts = append(stmts, fmt.Sprintf(
				"CREATE TABLE t_%02d (id BIGINT PRIMARY KEY, qty INT NOT NULL DEFAULT 0 CHECK (qty >= 0), code VARCHAR(20), UNIQUE KEY uk_code (code))", i))
		}
		db.Exec(t, stmts...)
		rows, err := Introspect(context.Background(), db.SQL, db.Name)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows.Tables) != n || len(rows.Columns) != 3*n || len(rows.Statistics) != 2*n || len(rows.Checks) != n {
			t.Fatalf("%d tables: got %d tables, %d columns, %d index parts, %d checks",
				n, len(rows.Tables), len(rows.Columns), len(rows.Statistics), len(rows.Checks))
		}
		counts[n] = rows.Queries
	}
	if counts[3] != counts[30] || counts[3] == 0 {
		t.Errorf("queries for 3 tables: %d, for 30 tables: %d; want the same, not 0", counts[3], counts[30])
	}
}

// TestFromInformationSchemaSkipsViews checks that a view, which
// information_schema lists with its columns, is no table of the model.
func TestFromInformationSchemaSkipsViews(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t,
		"CREATE TABLE t_stock (id BIGINT PRIMARY KEY, qty INT NOT NULL)",
		"CREATE VIEW v_stock AS SELECT id, qty FROM t_stock",
	)
	s, _, err := FromInformationSchema(context.Background(), db.SQL, db.Name)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range s.Sorted() {
		names = append(names, tb.Name)
	}
	if diff := cmp.Diff([]string{"t_stock"}, names); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
}

// TestFromInformationSchemaErrorsHideDSN checks that a failing introspection
// says what it was reading and nothing of how the server was reached.
func TestFromInformationSchemaErrorsHideDSN(t *testing.T) {
	db := dbtest.MySQL(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := FromInformationSchema(ctx, db.SQL, db.Name)
	if err == nil {
		t.Fatal("no error from a cancelled context")
	}
	msg := err.Error()
	if !strings.Contains(msg, db.Name) || !strings.HasPrefix(msg, "introspect ") {
		t.Errorf("error %q does not say what it was reading", msg)
	}
	for _, secret := range []string{db.Password, db.DSN, db.Addr} {
		if secret != "" && strings.Contains(msg, secret) {
			t.Errorf("error %q holds connection details", dbtest.Redact(msg))
		}
	}
}
