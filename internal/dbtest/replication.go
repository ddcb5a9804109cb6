package dbtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// replicationReadyTimeout bounds the start of replication and the arrival
// of the test database on the replica.
const replicationReadyTimeout = 30 * time.Second

// PrivateMySQLWith is PrivateMySQL on a mariadbd started with extra
// options besides the throwaway ones, which they override ("--log-bin",
// "--sync-binlog=1", "--innodb-flush-log-at-trx-commit=1",
// "--binlog-format=STATEMENT"): for the tests of how a server keeps
// commits and replicates, each with the settings it judges.
func PrivateMySQLWith(t testing.TB, extra ...string) *DB {
	t.Helper()
	return privateServer(t, extra).newDB(t)
}

// AnotherDB returns another fresh database on the server of db, dropped
// when t ends: the databases of one server, as the shards of a fleet.
func (db *DB) AnotherDB(t testing.TB) *DB {
	t.Helper()
	return db.server.newDB(t)
}

// privateServer starts a mariadbd of t's own with extra options, stopped
// and removed when t ends. It needs a throwaway server.
func privateServer(t testing.TB, extra []string) *MariaDB {
	t.Helper()
	if os.Getenv(EnvMySQLDSN) != "" {
		fatalf(t, "this test configures its own servers: it needs throwaway mariadbd (unset %s)", EnvMySQLDSN)
	}
	srv, err := startMariaDB(extra...)
	if err != nil {
		fatalf(t, "%v", err)
	}
	srv.private = true
	t.Cleanup(func() {
		srv.root.Close()
		srv.proc.stop(stopTimeout)
		os.RemoveAll(srv.dir)
	})
	return srv
}

// Replication is a throwaway primary and a replica that follows it, each a
// mariadbd of the test's own: Primary and Replica are one database as each
// server holds it, the replica's received from the primary.
type Replication struct {
	Primary, Replica *DB
}

// ReplicaPair starts a primary with the binary log on (server_id 1, row
// format) and extra options primaryExtra, and a replica (server_id 2) with
// replicaExtra that follows it by GTID (MASTER_USE_GTID = slave_pos) from
// the primary's position after the replication account was made; then it
// creates a fresh database on the primary and returns once the replica has
// it, with replication running. Both servers stop when t ends. The replica
// is writable, as mariadbd starts: set read_only through Replica.Server()
// to test the safe case.
func ReplicaPair(t testing.TB, primaryExtra, replicaExtra []string) *Replication {
	t.Helper()
	primary := privateServer(t, append([]string{"--log-bin=mariadb-bin", "--server-id=1", "--binlog-format=ROW"}, primaryExtra...))
	replica := privateServer(t, append([]string{"--log-bin=mariadb-bin", "--server-id=2", "--binlog-format=ROW"}, replicaExtra...))

	password := newPassword()
	account := quoteString("guard_repl") + "@" + quoteString("127.0.0.1")
	primary.Exec(t, "CREATE USER "+account+" IDENTIFIED BY "+quoteString(password),
		"GRANT REPLICATION SLAVE ON *.* TO "+account)
	var pos string
	if err := primary.root.QueryRow("SELECT @@GLOBAL.gtid_binlog_pos").Scan(&pos); err != nil {
		fatalf(t, "read the primary's GTID position: %v", err)
	}
	host, port, ok := strings.Cut(primary.Addr(), ":")
	if !ok {
		fatalf(t, "primary address %q has no port", primary.Addr())
	}
	if _, err := strconv.Atoi(port); err != nil {
		fatalf(t, "primary address %q: %v", primary.Addr(), err)
	}
	replica.Exec(t, "SET GLOBAL gtid_slave_pos = "+quoteString(pos),
		"CHANGE MASTER TO MASTER_HOST = "+quoteString(host)+", MASTER_PORT = "+port+", MASTER_USER = 'guard_repl', "+
			"MASTER_PASSWORD = "+quoteString(password)+", MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1",
		"START SLAVE")
	ctx, cancel := context.WithTimeout(context.Background(), replicationReadyTimeout)
	defer cancel()
	if err := poll(ctx, func() (bool, error) { return replicating(replica.root) }); err != nil {
		fatalf(t, "the replica does not replicate: %v; %s:\n%s", err, filepath.Join(replica.dir, "error.log"), fileTail(filepath.Join(replica.dir, "error.log"), 20))
	}

	db := primary.newDB(t)
	if err := poll(ctx, func() (bool, error) {
		var n int
		err := replica.root.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", db.Name).Scan(&n)
		return n == 1, err
	}); err != nil {
		fatalf(t, "database %s did not reach the replica: %v", db.Name, err)
	}
	return &Replication{Primary: db, Replica: replica.openDB(t, db.Name)}
}

// WaitReplica returns once the replica has applied everything the primary
// has committed so far.
func (r *Replication) WaitReplica(t testing.TB) {
	t.Helper()
	var pos string
	if err := r.Primary.server.root.QueryRow("SELECT @@GLOBAL.gtid_binlog_pos").Scan(&pos); err != nil {
		fatalf(t, "read the primary's GTID position: %v", err)
	}
	var waited sql.NullInt64
	if err := r.Replica.server.root.QueryRow("SELECT MASTER_GTID_WAIT(?, ?)", pos, int(replicationReadyTimeout.Seconds())).Scan(&waited); err != nil || waited.Int64 != 0 {
		fatalf(t, "the replica did not reach %s: %v (MASTER_GTID_WAIT = %v)", pos, err, waited)
	}
}

// replicating reports whether both replication threads of the default
// connection run.
func replicating(root *sql.DB) (bool, error) {
	rows, err := root.Query("SHOW SLAVE STATUS")
	if err != nil {
		return false, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return false, err
	}
	if !rows.Next() {
		return false, rows.Err()
	}
	vals := make([]sql.RawBytes, len(cols))
	dest := make([]any, len(cols))
	for i := range vals {
		dest[i] = &vals[i]
	}
	if err := rows.Scan(dest...); err != nil {
		return false, err
	}
	state := map[string]string{}
	for i, c := range cols {
		state[c] = string(vals[i])
	}
	if state["Slave_IO_Running"] == "Yes" && state["Slave_SQL_Running"] == "Yes" {
		return true, nil
	}
	return false, fmt.Errorf("Slave_IO_Running %s, Slave_SQL_Running %s: %s %s", state["Slave_IO_Running"],
		state["Slave_SQL_Running"], state["Last_IO_Error"], state["Last_SQL_Error"])
}

// openDB returns the database name of s as its password account reaches
// it, without creating it: a database another server replicated here.
func (s *MariaDB) openDB(t testing.TB, name string) *DB {
	t.Helper()
	db := &DB{Name: name, Addr: s.Addr(), User: s.user, Password: s.password, RootDSN: s.rootDSN, server: s}
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
