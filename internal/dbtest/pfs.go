package dbtest

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// pfsShared is the server of PerformanceSchemaMySQL, started once per test
// binary beside the shared one: performance_schema costs memory and start-up
// time the other tests do not need.
var pfsShared struct {
	once sync.Once
	srv  *MariaDB
	err  error
}

// PerformanceSchemaMySQL returns a fresh database on a mariadbd started
// with --performance-schema=ON, shared by the tests that need the
// statements a server ran (guard audit --queries). Its digest table is
// shared too: a test reads the rows of its own database (SCHEMA_NAME).
// With GUARD_TEST_MYSQL_DSN set it uses that server, and fails t when its
// performance_schema is off.
func PerformanceSchemaMySQL(t testing.TB) *DB {
	t.Helper()
	pfsShared.once.Do(func() {
		if os.Getenv(EnvMySQLDSN) != "" {
			pfsShared.srv, pfsShared.err = sharedMariaDB()
			if pfsShared.err == nil {
				var on int
				if err := pfsShared.srv.root.QueryRow("SELECT @@performance_schema").Scan(&on); err != nil || on != 1 {
					pfsShared.err = fmt.Errorf("%s: the server's performance_schema is off (start it with --performance-schema=ON)", EnvMySQLDSN)
				}
			}
			return
		}
		pfsShared.srv, pfsShared.err = startMariaDB("--performance-schema=ON")
	})
	if pfsShared.err != nil {
		fatalf(t, "%v", pfsShared.err)
	}
	return pfsShared.srv.newDB(t)
}

// pfsOff is the server of NoPerformanceSchemaMySQL when the shared one has
// performance_schema on.
var pfsOff struct {
	once sync.Once
	srv  *MariaDB
	err  error
}

// NoPerformanceSchemaMySQL returns a fresh database on a server whose
// performance_schema is off, for the tests of what guard says without it:
// the shared server when its performance_schema is off (the throwaway one
// always is), else a mariadbd started with --performance-schema=OFF. It
// never skips: a test of the off case runs wherever the suite runs.
func NoPerformanceSchemaMySQL(t testing.TB) *DB {
	t.Helper()
	pfsOff.once.Do(func() {
		shared, err := sharedMariaDB()
		if err != nil {
			pfsOff.err = err
			return
		}
		var on int
		if err := shared.root.QueryRow("SELECT @@performance_schema").Scan(&on); err != nil {
			pfsOff.err = fmt.Errorf("read @@performance_schema: %v", err)
			return
		}
		if on == 0 {
			pfsOff.srv = shared
			return
		}
		pfsOff.srv, pfsOff.err = startMariaDB("--performance-schema=OFF")
	})
	if pfsOff.err != nil {
		fatalf(t, "%v", pfsOff.err)
	}
	return pfsOff.srv.newDB(t)
}
