package dbtest

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// onceServer is a server a test binary starts (or finds) the first time a
// test asks for it.
type onceServer struct {
	once sync.Once
	srv  *MariaDB
	err  error
}

// db returns a fresh database on the server, which find gives the first
// time; an error of find fails every test that asks.
func (o *onceServer) db(t testing.TB, find func() (*MariaDB, error)) *DB {
	t.Helper()
	o.once.Do(func() { o.srv, o.err = find() })
	if o.err != nil {
		fatalf(t, "%v", o.err)
	}
	return o.srv.newDB(t)
}

// performanceSchemaOn reports whether srv runs with performance_schema.
func performanceSchemaOn(srv *MariaDB) (bool, error) {
	var on int
	if err := srv.root.QueryRow("SELECT @@performance_schema").Scan(&on); err != nil {
		return false, fmt.Errorf("read @@performance_schema: %v", err)
	}
	return on == 1, nil
}

// pfsOn is the server of PerformanceSchemaMySQL, started once per test
// binary beside the shared one: performance_schema costs memory and start-up
// time the other tests do not need.
var pfsOn onceServer

// PerformanceSchemaMySQL returns a fresh database on a mariadbd started
// with --performance-schema=ON, shared by the tests that need the
// statements a server ran (guard audit --queries). Its digest table is
// shared too: a test reads the rows of its own database (SCHEMA_NAME).
// With GUARD_TEST_MYSQL_DSN set it uses that server, and fails t when its
// performance_schema is off.
func PerformanceSchemaMySQL(t testing.TB) *DB {
	t.Helper()
	return pfsOn.db(t, func() (*MariaDB, error) {
		if os.Getenv(EnvMySQLDSN) == "" {
			return startMariaDB("--performance-schema=ON")
		}
		srv, err := sharedMariaDB()
		if err != nil {
			return nil, err
		}
		if on, err := performanceSchemaOn(srv); err != nil || !on {
			return nil, fmt.Errorf("%s: the server's performance_schema is off (start it with --performance-schema=ON)", EnvMySQLDSN)
		}
		return srv, nil
	})
}

// pfsOff is the server of NoPerformanceSchemaMySQL when the shared one has
// performance_schema on.
var pfsOff onceServer

// NoPerformanceSchemaMySQL returns a fresh database on a server whose
// performance_schema is off, for the tests of what guard says without it:
// the shared server when its performance_schema is off (the throwaway one
// always is), else a mariadbd started with --performance-schema=OFF. It
// never skips: a test of the off case runs wherever the suite runs.
func NoPerformanceSchemaMySQL(t testing.TB) *DB {
	t.Helper()
	return pfsOff.db(t, func() (*MariaDB, error) {
		shared, err := sharedMariaDB()
		if err != nil {
			return nil, err
		}
		on, err := performanceSchemaOn(shared)
		if err != nil {
			return nil, err
		}
		if !on {
			return shared, nil
		}
		return startMariaDB("--performance-schema=OFF")
	})
}
