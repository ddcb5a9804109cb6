package dbtest

import (
	"database/sql"
	"testing"
)

// DB is a fresh database for one test, dropped when the test ends.
type DB struct {
	// DSN connects the password account to the database over TCP:
	// user:pass@tcp(127.0.0.1:PORT)/name?multiStatements=true&parseTime=true.
	DSN string
	// Name is the database, guard_test_<hex>.
	Name string
	// Addr is the server's host:port.
	Addr string
	// User and Password are the account of DSN. Never log Password: pass
	// messages through Redact.
	User, Password string
	// RootDSN connects as root (over the unix socket of a throwaway server),
	// without a database.
	RootDSN string
	// SQL is a pool opened on DSN, closed when the test ends.
	SQL *sql.DB

	server *MariaDB
}

// MySQL returns a fresh database on the test binary's MariaDB server, starting
// the server on first use; the database is dropped when t ends. A missing
// mariadbd fails t with the command that installs it.
func MySQL(t testing.TB) *DB {
	t.Helper()
	srv, err := sharedMariaDB()
	if err != nil {
		fatalf(t, "%v", err)
	}
	return srv.newDB(t)
}

// Server returns the server of db, for what needs root (SET GLOBAL, other
// databases).
func (db *DB) Server() *MariaDB { return db.server }

// Exec runs stmts one by one on db as its password account and fails t on the
// first error. A statement may hold several (multiStatements is on).
func (db *DB) Exec(t testing.TB, stmts ...string) {
	t.Helper()
	for _, stmt := range stmts {
		if _, err := db.SQL.Exec(stmt); err != nil {
			fatalf(t, "exec on %s %q: %v", db.Name, stmt, err)
		}
	}
}

// newDB creates a database and, on an existing server, its own password
// account; the test's cleanup removes both.
func (s *MariaDB) newDB(t testing.TB) *DB {
	t.Helper()
	suffix := randomHex(8)
	db := &DB{
		Name:     "guard_test_" + suffix,
		Addr:     s.Addr(),
		User:     s.user,
		Password: s.password,
		RootDSN:  s.rootDSN,
		server:   s,
	}
	if _, err := s.root.Exec("CREATE DATABASE " + quoteIdent(db.Name)); err != nil {
		fatalf(t, "create database %s: %v", db.Name, err)
	}
	ownUser := s.external
	if ownUser {
		db.User, db.Password = "guard_"+suffix, newPassword()
	}
	// Cleanups run last-in first-out: the pool closes before the drops.
	t.Cleanup(func() {
		if s.killed() {
			return
		}
		if _, err := s.root.Exec("DROP DATABASE IF EXISTS " + quoteIdent(db.Name)); err != nil {
			t.Error(Redact("drop database " + db.Name + ": " + err.Error()))
		}
		if ownUser {
			if err := dropPasswordUser(s.root, db.User); err != nil {
				t.Error(Redact(err.Error()))
			}
		}
	})
	if ownUser {
		if err := createPasswordUser(s.root, db.User, db.Password); err != nil {
			fatalf(t, "%v", err)
		}
	}

	cfg := s.userCfg.Clone()
	cfg.User, cfg.Passwd, cfg.DBName = db.User, db.Password, db.Name
	db.DSN = cfg.FormatDSN()
	pool, err := sql.Open("mysql", db.DSN)
	if err != nil {
		fatalf(t, "open %s: %v", db.DSN, err)
	}
	t.Cleanup(func() { pool.Close() })
	if err := pool.Ping(); err != nil {
		fatalf(t, "connect to %s: %v", db.DSN, err)
	}
	db.SQL = pool
	return db
}
