package dbtest

import (
	"os"
	"testing"
)

// PrivateMySQL returns a fresh database on a mariadbd of its own, started for
// t and stopped when t ends, so that the test may kill the server (Kill)
// without disturbing the others. It needs a throwaway server: with
// GUARD_TEST_MYSQL_DSN set it fails t, since killing an existing server is
// not a test's business.
func PrivateMySQL(t testing.TB) *DB {
	t.Helper()
	if os.Getenv(EnvMySQLDSN) != "" {
		fatalf(t, "this test kills its server: it needs a throwaway mariadbd (unset %s)", EnvMySQLDSN)
	}
	srv, err := startMariaDB()
	if err != nil {
		fatalf(t, "%v", err)
	}
	srv.private = true
	t.Cleanup(func() {
		srv.root.Close()
		srv.proc.stop(stopTimeout)
		os.RemoveAll(srv.dir)
	})
	return srv.newDB(t)
}

// Kill ends a PrivateMySQL server with SIGKILL, as a crash or the OOM killer
// would, and returns once it is gone: connections are then refused, and the
// end of the test no longer drops the database. It panics on a shared
// server, which other tests are using.
func (s *MariaDB) Kill() {
	if !s.private {
		panic("dbtest: Kill needs a server from PrivateMySQL")
	}
	s.proc.kill()
}

// killed reports whether a PrivateMySQL server was killed.
func (s *MariaDB) killed() bool { return s.private && s.proc.exited() }
