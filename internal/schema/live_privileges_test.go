package schema

import (
	"context"
	"database/sql"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// limitedTables are tables an account granted privileges on single tables
// sees: one with a column and a table CHECK, one without any, one it holds a
// column privilege on only, and one it holds nothing on.
var limitedTables = []string{
	"CREATE TABLE t_checked (id INT PRIMARY KEY, qty INT NOT NULL CHECK (qty >= 0), stock INT NOT NULL, CONSTRAINT chk_stock CHECK (stock >= 0))",
	"CREATE TABLE t_plain (id INT PRIMARY KEY, qty INT NOT NULL)",
	"CREATE TABLE t_columns (id INT PRIMARY KEY, qty INT NOT NULL, CONSTRAINT chk_columns CHECK (qty >= 0))",
	"CREATE TABLE t_secret (id INT PRIMARY KEY, qty INT NOT NULL)",
}

func readAs(t *testing.T, dsn, database string) *Schema {
	t.Helper()
	pool, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	defer pool.Close()
	s, _, err := FromInformationSchema(context.Background(), pool, database)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	return s
}

// TestTableGrantsSeeChecks reads a database as an account with table-level
// grants only: MariaDB's CHECK_CONSTRAINTS shows it no check, so the checks
// come from SHOW CREATE TABLE; a table whose definition it may not read has
// checks unknown, and the schema says tables may be missing.
func TestTableGrantsSeeChecks(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, limitedTables...)
	full := readAs(t, db.DSN, db.Name)
	if full.GrantedTablesOnly {
		t.Error("an account with every privilege: GrantedTablesOnly set")
	}
	for _, tb := range full.Tables {
		if tb.ChecksUnknown {
			t.Errorf("an account with every privilege: %s has checks unknown", tb.Name)
		}
	}

	acct := db.Account(t, "SELECT ON {db}.t_checked", "INSERT ON {db}.t_plain", "SELECT (qty) ON {db}.t_columns")
	got := readAs(t, acct.DSN, db.Name)
	if !got.GrantedTablesOnly {
		t.Error("table grants only: GrantedTablesOnly not set")
	}
	if got.Table("t_secret") != nil {
		t.Error("t_secret, on which the account holds nothing, is listed")
	}
	checked := got.Table("t_checked")
	if checked == nil {
		t.Fatal("t_checked missing")
	}
	if diff := cmp.Diff(full.Table("t_checked").Checks, checked.Checks); diff != "" {
		t.Errorf("checks of t_checked (-full account +table grant):\n%s", diff)
	}
	if checked.ChecksUnknown {
		t.Error("t_checked: checks unknown, though SHOW CREATE TABLE shows them")
	}
	if plain := got.Table("t_plain"); plain == nil || plain.ChecksUnknown || len(plain.Checks) != 0 {
		t.Errorf("t_plain = %+v, want known to have no check", plain)
	}
	if cols := got.Table("t_columns"); cols == nil || !cols.ChecksUnknown || !cols.ColumnsPartial {
		t.Errorf("t_columns = %+v, want checks unknown and columns partial (a column privilege shows no definition)", cols)
	}
	for _, name := range []string{"t_checked", "t_plain"} {
		if tb := got.Table(name); tb == nil || tb.ColumnsPartial {
			t.Errorf("%s = %+v, want every column seen", name, tb)
		}
	}
}

// TestDatabaseGrantSeesEverything is the safe twin: a SELECT on the whole
// database sees every table and check, without reading any definition.
func TestDatabaseGrantSeesEverything(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, limitedTables...)
	acct := db.Account(t, "SELECT ON {db}.*")
	pool, err := sql.Open("mysql", acct.DSN)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	defer pool.Close()
	rows, err := Introspect(context.Background(), pool, db.Name)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if len(rows.Definitions) != 0 {
		t.Errorf("read %d definitions, want none", len(rows.Definitions))
	}
	got, _, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	if got.GrantedTablesOnly || len(got.Tables) != len(limitedTables) {
		t.Errorf("GrantedTablesOnly %v, %d tables; want false, %d", got.GrantedTablesOnly, len(got.Tables), len(limitedTables))
	}
	for _, tb := range got.Tables {
		if tb.ChecksUnknown {
			t.Errorf("%s: checks unknown", tb.Name)
		}
	}
	if c := got.Table("t_columns"); c == nil || len(c.Checks) != 1 {
		t.Errorf("t_columns checks = %+v, want chk_columns", c)
	}
}

// TestRoleGrantIsNoLimitedView: privileges that come from an enabled role
// are not in USER_PRIVILEGES or SCHEMA_PRIVILEGES; the account must not be
// called limited for it, and sees every check.
func TestRoleGrantIsNoLimitedView(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, limitedTables...)
	role := "guard_role_" + db.Name[len("guard_test_"):]
	srv := db.Server()
	srv.Exec(t, "CREATE ROLE "+role, "GRANT SELECT ON `"+db.Name+"`.* TO "+role)
	t.Cleanup(func() { srv.Exec(t, "DROP ROLE "+role) })
	acct := db.Account(t, role)
	for _, host := range []string{"%", "127.0.0.1", "localhost"} {
		srv.Exec(t, "SET DEFAULT ROLE "+role+" FOR '"+acct.User+"'@'"+host+"'")
	}
	got := readAs(t, acct.DSN, db.Name)
	if got.GrantedTablesOnly || len(got.Tables) != len(limitedTables) {
		t.Errorf("GrantedTablesOnly %v, %d tables; want false, %d", got.GrantedTablesOnly, len(got.Tables), len(limitedTables))
	}
	for _, name := range []string{"t_checked", "t_columns"} {
		if tb := got.Table(name); tb == nil || len(tb.Checks) == 0 || tb.ChecksUnknown {
			t.Errorf("%s = %+v, want its checks", name, tb)
		}
	}
}
