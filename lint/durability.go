package lint

import (
	"strconv"
	"strings"
)

// Durability is what a live audit read of how a MySQL or MariaDB server
// keeps the commits it acknowledged and how it fails over, for GS011 and
// GS012. A fact that could not be read says why, so that a rule says
// "cannot tell" instead of reporting a clean server or a false finding.
type Durability struct {
	// Server names the server as a whole, host:port: the findings of GS011
	// and GS012 are the server's, shared by every database on it.
	Server string
	// MariaDB says the server is MariaDB, whose variables and replication
	// statements are named apart from MySQL's.
	MariaDB bool
	// Variables holds the values SHOW GLOBAL VARIABLES gave, by lower-case
	// name; a variable missing from it was not returned (a plugin not
	// loaded, a server that lacks it).
	Variables map[string]string
	// VariablesErr is why SHOW GLOBAL VARIABLES failed; "" when it ran.
	VariablesErr string
	// Status holds the SHOW GLOBAL STATUS values read (replication
	// counters, semi-synchronous replication state), by lower-case name.
	Status map[string]string
	// Sources are the sources the server replicates from, as SHOW REPLICA
	// STATUS (SHOW ALL SLAVES STATUS on MariaDB) lists them; nil for none.
	Sources []ReplicationSource
	// SourcesKnown says whether Sources is the whole list: false when the
	// account may not list them and nothing else told (SourcesErr says
	// why).
	SourcesKnown bool
	SourcesErr   string
	// Replicas are the replicas that stream the binary log of the server
	// (SHOW REPLICAS / SHOW SLAVE HOSTS, else the binlog dump threads of
	// information_schema.PROCESSLIST), each host:port or a host, or only
	// counted (ReplicaCount) when the server says how many and not which.
	Replicas     []string
	ReplicaCount int
	// ReplicasKnown says whether the replicas are known; ReplicasErr says
	// why not.
	ReplicasKnown bool
	ReplicasErr   string
}

// ReplicationSource is one source a replica reads from.
type ReplicationSource struct {
	// Channel is the channel (MySQL) or connection name (MariaDB); "" for
	// the default one.
	Channel string
	// Addr is the source's host:port.
	Addr string
	// IORunning and SQLRunning are what the server says of its receiver
	// and applier threads: Yes, No or Connecting.
	IORunning, SQLRunning string
	// GTID says how the replica positions itself: MariaDB's Using_Gtid
	// (No, Current_Pos, Slave_Pos), or "auto" / "file" for MySQL's
	// Auto_Position 1 / 0. "" when the server did not say.
	GTID string
}

// Var returns a global variable and whether the server gave it.
func (d *Durability) Var(name string) (string, bool) {
	v, ok := d.Variables[name]
	return v, ok
}

// On reports whether a boolean variable is ON (or 1), and whether the
// server gave it.
func (d *Durability) On(name string) (on, known bool) {
	v, ok := d.Variables[name]
	if !ok {
		return false, false
	}
	return SettingOn(v), true
}

// StatusCount returns a numeric status variable and whether the server
// gave it.
func (d *Durability) StatusCount(name string) (int, bool) {
	v, ok := d.Status[name]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return n, err == nil
}

// IsReplica reports whether the server replicates from a source, and
// whether that is known.
func (d *Durability) IsReplica() (replica, known bool) {
	return len(d.Sources) > 0, d.SourcesKnown
}

// HasReplicas reports whether replicas stream the server's binary log, how
// many, and whether that is known.
func (d *Durability) HasReplicas() (n int, known bool) {
	return max(len(d.Replicas), d.ReplicaCount), d.ReplicasKnown
}

// SettingOn reads a boolean variable or status value as the servers print
// it: ON, 1, YES or TRUE in any case.
func SettingOn(v string) bool {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "ON", "1", "YES", "TRUE":
		return true
	}
	return false
}

// TiDB is what a live audit read of a TiDB server: its release and the
// variables that change what guard's guards do there.
type TiDB struct {
	// Release is the TiDB release, e.g. "7.5.0"; the server answers
	// VERSION() as MySQL 8.0.11 and names its release after it.
	Release string
	// CheckConstraint is tidb_enable_check_constraint (v7.2 on, GLOBAL):
	// "ON" or "OFF"; "" when the server has no such variable.
	CheckConstraint string
	// TxnMode is the global tidb_txn_mode: "pessimistic", or "optimistic"
	// (the server's "" reads as optimistic); "" when not read.
	TxnMode string
	// AutoRetry says tidb_disable_txn_auto_retry is OFF: TiDB retries an
	// explicit optimistic transaction that met a write conflict by
	// running its writes again (removed in v8.0).
	AutoRetry bool
}

// Optimistic reports whether new sessions run optimistic transactions.
func (t *TiDB) Optimistic() bool { return t.TxnMode == "optimistic" }
