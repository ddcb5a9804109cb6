package dbtest

import "testing"

// TestPrivateMySQLWith checks that the extra options win over the
// throwaway server's own (--skip-log-bin, --sync-binlog=0).
func TestPrivateMySQLWith(t *testing.T) {
	db := PrivateMySQLWith(t, "--log-bin", "--sync-binlog=1", "--binlog-format=STATEMENT")
	var logBin, sync int
	var format string
	if err := db.SQL.QueryRow("SELECT @@log_bin, @@sync_binlog, @@binlog_format").Scan(&logBin, &sync, &format); err != nil {
		t.Fatal(err)
	}
	if logBin != 1 || sync != 1 || format != "STATEMENT" {
		t.Errorf("log_bin %d, sync_binlog %d, binlog_format %s; want 1, 1, STATEMENT", logBin, sync, format)
	}
}

// TestReplicaPair writes on the primary and reads the row on the replica.
func TestReplicaPair(t *testing.T) {
	r := ReplicaPair(t, nil, nil)
	r.Primary.Exec(t, "CREATE TABLE t (id INT PRIMARY KEY, n INT NOT NULL)", "INSERT INTO t VALUES (1, 7)")
	r.WaitReplica(t)
	var n int
	if err := r.Replica.SQL.QueryRow("SELECT n FROM t WHERE id = 1").Scan(&n); err != nil || n != 7 {
		t.Fatalf("replica: n = %d, %v; want 7", n, err)
	}
	if r.Replica.Name != r.Primary.Name || r.Replica.Addr == r.Primary.Addr {
		t.Errorf("replica %s/%s, primary %s/%s: want one database on two servers", r.Replica.Addr, r.Replica.Name, r.Primary.Addr, r.Primary.Name)
	}
	var readOnly int
	if err := r.Replica.SQL.QueryRow("SELECT @@read_only").Scan(&readOnly); err != nil || readOnly != 0 {
		t.Errorf("replica read_only = %d, %v: ReplicaPair promises a writable replica", readOnly, err)
	}
}
