package dbtest

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
)

func TestMain(m *testing.M) { Main(m) }

// fatalRecorder stands in for a test so that a test can see what dbtest
// fails it with: Fatal records the message and ends the goroutine, as the
// real one does.
type fatalRecorder struct {
	testing.TB
	msg    string
	failed bool
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatal(args ...any) {
	r.msg, r.failed = fmt.Sprint(args...), true
	runtime.Goexit()
}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg, r.failed = fmt.Sprintf(format, args...), true
	runtime.Goexit()
}

// recordFatal runs fn with a recorder in place of t and returns the message
// fn failed with, if any.
func recordFatal(t *testing.T, fn func(tb testing.TB)) (msg string, failed bool) {
	t.Helper()
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(rec)
	}()
	<-done
	return rec.msg, rec.failed
}

var dbNamePattern = regexp.MustCompile(`^guard_test_[0-9a-f]{16}$`)

func TestMySQLGivesFreshDatabases(t *testing.T) {
	first := MySQL(t)
	srv := first.Server()
	t.Logf("MariaDB %s ready in %v (external: %v)", srv.Version(), srv.StartupTime(), srv.External())
	second := MySQL(t)

	for _, db := range []*DB{first, second} {
		if !dbNamePattern.MatchString(db.Name) {
			t.Errorf("database name %q does not match %s", db.Name, dbNamePattern)
		}
	}
	if first.Name == second.Name {
		t.Fatalf("two calls gave the same database %s", first.Name)
	}
	if second.Server() != srv {
		t.Errorf("the two databases are on different servers")
	}

	first.Exec(t, "CREATE TABLE t_inventory (id INT PRIMARY KEY, qty INT NOT NULL)")
	var n int
	err := second.SQL.QueryRow(
		"SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't_inventory'",
	).Scan(&n)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	if n != 0 {
		t.Errorf("table of %s visible in %s", first.Name, second.Name)
	}
}

func TestMySQLDSN(t *testing.T) {
	db := MySQL(t)
	cfg, err := mysql.ParseDSN(db.DSN)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	got := []string{cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName,
		strconv.FormatBool(cfg.ParseTime), strconv.FormatBool(cfg.MultiStatements)}
	want := []string{"tcp", db.Addr, db.User, db.Password, db.Name, "true", "true"}
	if db.Server().External() {
		want[0] = cfg.Net // whatever GUARD_TEST_MYSQL_DSN uses
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DSN fields (-want +got):\n%s", Redact(diff))
	}
	if len(db.Password) < 20 {
		t.Errorf("password has %d characters, want at least 20", len(db.Password))
	}
	if strings.ContainsAny(db.Password, `'"\/@:?`) {
		t.Errorf("password contains characters a DSN or SQL literal must escape")
	}

	root, err := mysql.ParseDSN(db.RootDSN)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	if root.DBName != "" {
		t.Errorf("RootDSN selects database %q, want none", root.DBName)
	}
	if !db.Server().External() {
		if root.Net != "unix" || root.User != rootAccount(mustCurrentUser(t)) {
			t.Errorf("RootDSN uses %s over %s, want %s over unix", root.User, root.Net, rootAccount(mustCurrentUser(t)))
		}
	}
}

func mustCurrentUser(t *testing.T) string {
	t.Helper()
	u, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestPasswordUserOverTCP(t *testing.T) {
	db := MySQL(t)
	// One string, two statements: multiStatements is on.
	db.Exec(t,
		"CREATE TABLE t_inventory (id INT PRIMARY KEY, qty INT NOT NULL, CHECK (qty >= 0))",
		"INSERT INTO t_inventory VALUES (1, 5); INSERT INTO t_inventory VALUES (2, 7)",
	)
	res, err := db.SQL.Exec("UPDATE t_inventory SET qty = qty - 6 WHERE id = 2 AND qty >= 6")
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		t.Errorf("conditional UPDATE affected %d rows (%v), want 1", n, err)
	}
	var sum int
	var account string
	if err := db.SQL.QueryRow("SELECT SUM(qty), CURRENT_USER() FROM t_inventory").Scan(&sum, &account); err != nil {
		t.Fatal(Redact(err.Error()))
	}
	if sum != 6 {
		t.Errorf("SUM(qty) = %d, want 6", sum)
	}
	if !strings.HasPrefix(account, db.User+"@") {
		t.Errorf("connected as %s, want %s@…", account, db.User)
	}
	if !db.Server().External() && account != "guard@127.0.0.1" {
		// The 127.0.0.1 account matches only a TCP client.
		t.Errorf("connected as %s, want guard@127.0.0.1", account)
	}
}

func TestWrongPasswordIsRefused(t *testing.T) {
	db := MySQL(t)
	cfg, err := mysql.ParseDSN(db.DSN)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	cfg.Passwd = "not-" + db.Password
	pool, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	defer pool.Close()
	err = pool.Ping()
	var myErr *mysql.MySQLError
	if !errors.As(err, &myErr) || myErr.Number != 1045 {
		t.Errorf("ping with a wrong password: %v, want error 1045 (access denied)", Redact(fmt.Sprint(err)))
	}
}

// schemaExists asks the server whether database name exists.
func schemaExists(t *testing.T, srv *MariaDB, name string) bool {
	t.Helper()
	var n int
	err := srv.Root().QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", name).Scan(&n)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	return n == 1
}

func TestDatabaseDroppedAfterTest(t *testing.T) {
	var name string
	var srv *MariaDB
	t.Run("uses", func(t *testing.T) {
		db := MySQL(t)
		name, srv = db.Name, db.Server()
		db.Exec(t, "CREATE TABLE t_order (id INT PRIMARY KEY)")
		if !schemaExists(t, srv, name) {
			t.Fatalf("database %s missing during the test", name)
		}
	})
	if srv == nil {
		t.Fatal("subtest did not get a database")
	}
	if schemaExists(t, srv, name) {
		t.Errorf("database %s still exists after its test", name)
	}
}

func TestRootSetsGlobals(t *testing.T) {
	db := MySQL(t)
	root, err := sql.Open("mysql", db.RootDSN)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	defer root.Close()
	root.SetMaxOpenConns(1)
	var before string
	if err := root.QueryRow("SELECT @@GLOBAL.sql_mode").Scan(&before); err != nil {
		t.Fatal(Redact(err.Error()))
	}
	t.Cleanup(func() { db.Server().Exec(t, "SET GLOBAL sql_mode = "+quoteString(before)) })

	const mode = "NO_ENGINE_SUBSTITUTION"
	if _, err := root.Exec("SET GLOBAL sql_mode = ?", mode); err != nil {
		t.Fatal(Redact(err.Error()))
	}
	// A new session of the password account starts with the global value.
	conn, err := sql.Open("mysql", db.DSN)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	defer conn.Close()
	var got string
	if err := conn.QueryRow("SELECT @@SESSION.sql_mode").Scan(&got); err != nil {
		t.Fatal(Redact(err.Error()))
	}
	if got != mode {
		t.Errorf("sql_mode of a new session = %q, want %q", got, mode)
	}
}

func TestExecFailureRedactsPassword(t *testing.T) {
	db := MySQL(t)
	// The server quotes the table name back, password included.
	msg, failed := recordFatal(t, func(tb testing.TB) {
		db.Exec(tb, "SELECT * FROM no_such_table_"+db.Password)
	})
	if !failed {
		t.Fatal("Exec of a bad statement did not fail the test")
	}
	if strings.Contains(msg, db.Password) {
		t.Errorf("failure message shows the password")
	}
	if !strings.Contains(msg, "no_such_table_"+redactedText) {
		t.Errorf("failure message %q does not show the redacted statement", msg)
	}
}

// TestExistingServer runs the GUARD_TEST_MYSQL_DSN path against the throwaway
// server, whose guard account is root-capable.
func TestExistingServer(t *testing.T) {
	host := MySQL(t)
	cfg, err := mysql.ParseDSN(host.DSN)
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	cfg.DBName = ""
	srv, err := connectMariaDB(cfg.FormatDSN())
	if err != nil {
		t.Fatal(Redact(err.Error()))
	}
	t.Cleanup(func() { srv.root.Close() })
	if !srv.External() || srv.RootDSN() != cfg.FormatDSN() {
		t.Errorf("existing server: External() = %v, RootDSN differs: %v", srv.External(), srv.RootDSN() != cfg.FormatDSN())
	}

	var name, user string
	t.Run("uses", func(t *testing.T) {
		db := srv.newDB(t)
		name, user = db.Name, db.User
		if want := "guard_" + strings.TrimPrefix(db.Name, "guard_test_"); user != want {
			t.Errorf("account %q, want %q", user, want)
		}
		db.Exec(t, "CREATE TABLE t_account (id INT PRIMARY KEY, balance INT NOT NULL)")
		var account string
		if err := db.SQL.QueryRow("SELECT CURRENT_USER()").Scan(&account); err != nil {
			t.Fatal(Redact(err.Error()))
		}
		if !strings.HasPrefix(account, user+"@") {
			t.Errorf("connected as %s, want %s@…", account, user)
		}
	})
	if schemaExists(t, host.Server(), name) {
		t.Errorf("database %s still exists after its test", name)
	}
	var accounts int
	if err := host.Server().Root().QueryRow("SELECT COUNT(*) FROM mysql.user WHERE User = ?", user).Scan(&accounts); err != nil {
		t.Fatal(Redact(err.Error()))
	}
	if accounts != 0 {
		t.Errorf("%d accounts %s left after the test", accounts, user)
	}
}

func TestRedact(t *testing.T) {
	pw := newPassword()
	tests := []struct {
		name, in, want string
	}{
		{"dsn", "guard:" + pw + "@tcp(127.0.0.1:1)/db", "guard:" + redactedText + "@tcp(127.0.0.1:1)/db"},
		{"twice", pw + " and " + pw, redactedText + " and " + redactedText},
		{"none", "nothing secret here", "nothing secret here"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	addSecret("") // must not make Redact insert text everywhere
	if got := Redact("abc"); got != "abc" {
		t.Errorf("after an empty secret, Redact(%q) = %q", "abc", got)
	}
}

func TestFindBinary(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "guard-fake-server")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guard-not-executable"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir()) // an empty PATH directory
	tests := []struct {
		name    string
		names   []string
		dirs    []string
		advice  string
		want    string
		wantErr string
	}{
		{"in dir", []string{"guard-fake-server"}, []string{dir}, mysqlAdvice, exe, ""},
		{"second name", []string{"guard-missing", "guard-fake-server"}, []string{dir}, mysqlAdvice, exe, ""},
		{"not executable", []string{"guard-not-executable"}, []string{dir}, mysqlAdvice, "",
			"guard-not-executable not found: " + mysqlAdvice},
		{"mariadbd missing", []string{"mariadbd"}, nil, mysqlAdvice, "",
			"mariadbd not found: install it with `apt-get install -y mariadb-server` (or set GUARD_TEST_MYSQL_DSN)"},
		{"redis missing", []string{"redis-server"}, nil, redisAdvice, "",
			"redis-server not found: install it with `apt-get install -y redis-server` (or set GUARD_TEST_REDIS_ADDR)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := findBinary(tt.names, tt.dirs, tt.advice)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tt.want || gotErr != tt.wantErr {
				t.Errorf("findBinary = %q, %q; want %q, %q", got, gotErr, tt.want, tt.wantErr)
			}
		})
	}
}
