package audit

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// applyServerRows tells live what the server's answers r say: how a MySQL
// or MariaDB server keeps commits and replicates (Durability), or what a
// TiDB server is (TiDB) and with it whether it enforces CHECK. server is
// host:port, the name of the findings that are the server's.
func applyServerRows(live *lint.Live, r *ServerRows, server string) {
	srv := schema.ParseServer(r.Version)
	if r.TiDBVersion != "" && !srv.IsTiDB() {
		if srv.TiDB = schema.TiDBRelease(r.TiDBVersion); srv.TiDB == "" {
			srv.TiDB = "unknown"
		}
	}
	if srv.IsTiDB() {
		live.TiDB = tidbFacts(r, srv)
		live.EnforceCheck = srv.SwitchesCheckConstraints() && live.TiDB.CheckConstraint == "ON"
		return
	}
	live.Durability = durabilityFacts(r, srv, server)
}

// serverNotes says what the audit of the server live describes cannot
// see: the CHECK constraints of a TiDB that enforces them, which guard does
// not read from TiDB's information_schema.
func serverNotes(live *lint.Live) []string {
	if live.TiDB == nil || !live.EnforceCheck {
		return nil
	}
	return []string{"TiDB: guard reads no CHECK constraint from TiDB's information_schema, so GS003 may report a " +
		"counter whose CHECK is there (SHOW CREATE TABLE shows it)"}
}

// tidbFacts reads the variables that change what guard's guards do on
// TiDB.
func tidbFacts(r *ServerRows, srv schema.Server) *lint.TiDB {
	t := &lint.TiDB{Release: srv.TiDB}
	if v, ok := r.Variables["tidb_enable_check_constraint"]; ok {
		t.CheckConstraint = "OFF"
		if lint.SettingOn(v) {
			t.CheckConstraint = "ON"
		}
	}
	if v, ok := r.Variables["tidb_txn_mode"]; ok {
		// TiDB runs optimistic transactions for "" as for "optimistic".
		t.TxnMode = strings.ToLower(strings.TrimSpace(v))
		if t.TxnMode == "" {
			t.TxnMode = "optimistic"
		}
	}
	if v, ok := r.Variables["tidb_disable_txn_auto_retry"]; ok && !lint.SettingOn(v) {
		t.AutoRetry = srv.RetriesOptimisticTransactions()
	}
	return t
}

// durabilityFacts reads the answers of a MySQL or MariaDB server: its
// variables, the sources it replicates from and the replicas it serves,
// each known or said why not.
func durabilityFacts(r *ServerRows, srv schema.Server, server string) *lint.Durability {
	d := &lint.Durability{
		Server:       server,
		MariaDB:      srv.Flavor == schema.FlavorMariaDB,
		Variables:    lowerKeys(r.Variables),
		VariablesErr: r.VariablesError,
		Status:       lowerKeys(r.Status),
	}
	readSources(d, r)
	readReplicas(d, r)
	return d
}

// readSources fills the sources of d: SHOW REPLICA STATUS, else MariaDB's
// Slaves_running, which counts the running replication connections
// whatever the account's privileges (a stopped one it does not count).
func readSources(d *lint.Durability, r *ServerRows) {
	if r.ReplicaStatusError == "" {
		d.SourcesKnown = true
		for _, row := range r.ReplicaStatus {
			d.Sources = append(d.Sources, sourceOf(row))
		}
		return
	}
	if n, ok := d.StatusCount("slaves_running"); ok {
		d.SourcesKnown = true
		for range n {
			d.Sources = append(d.Sources, lint.ReplicationSource{IORunning: "Yes", SQLRunning: "Yes"})
		}
		return
	}
	d.SourcesErr = r.ReplicaStatusError
}

// readReplicas fills the replicas of d: none without a binary log; SHOW
// REPLICAS, else the binlog dump threads of an account that sees every
// thread, else MariaDB's Slaves_connected.
func readReplicas(d *lint.Durability, r *ServerRows) {
	if on, known := d.On("log_bin"); known && !on {
		d.ReplicasKnown = true
		return
	}
	switch {
	case d.VariablesErr != "":
		d.ReplicasErr = d.VariablesErr
	case r.ReplicaHostsError == "":
		d.ReplicasKnown = true
		for _, row := range r.ReplicaHosts {
			d.Replicas = append(d.Replicas, replicaOf(row))
		}
	case len(r.DumpThreads) > 0 || r.SeesAllThreads:
		d.ReplicasKnown = true
		for _, h := range r.DumpThreads {
			d.Replicas = append(d.Replicas, h)
		}
	default:
		if n, ok := d.StatusCount("slaves_connected"); ok {
			d.ReplicasKnown, d.ReplicaCount = true, n
			return
		}
		why := r.ReplicaHostsError
		if r.DumpThreadsError != "" {
			why += "; information_schema.PROCESSLIST: " + r.DumpThreadsError
		} else {
			why += "; information_schema.PROCESSLIST shows the account's own threads only (no PROCESS privilege)"
		}
		d.ReplicasErr = why
	}
}

// sourceOf reads one row of SHOW REPLICA STATUS, whose columns MySQL
// renamed in 8.0.22 (Source_Host for Master_Host, …) and MariaDB names its
// own way (Connection_name, Using_Gtid).
func sourceOf(row map[string]string) lint.ReplicationSource {
	s := lint.ReplicationSource{
		Channel:    first(row, "Channel_Name", "Connection_name"),
		IORunning:  first(row, "Replica_IO_Running", "Slave_IO_Running"),
		SQLRunning: first(row, "Replica_SQL_Running", "Slave_SQL_Running"),
	}
	if host := first(row, "Source_Host", "Master_Host"); host != "" {
		s.Addr = host
		if port := first(row, "Source_Port", "Master_Port"); port != "" {
			s.Addr += ":" + port
		}
	}
	if v, ok := row["Using_Gtid"]; ok {
		s.GTID = v
	} else if v, ok := row["Auto_Position"]; ok {
		s.GTID = "file"
		if v == "1" {
			s.GTID = "auto"
		}
	}
	return s
}

// replicaOf names one row of SHOW REPLICAS / SHOW SLAVE HOSTS: host:port
// when the replica reports its host (report_host), else its server id.
func replicaOf(row map[string]string) string {
	if host := row["Host"]; host != "" {
		if port := row["Port"]; port != "" && port != "0" {
			return host + ":" + port
		}
		return host
	}
	id := first(row, "Server_Id", "Server_id")
	if _, err := strconv.Atoi(id); err != nil {
		return "a replica"
	}
	return "server_id " + id
}

// first returns the value of the first of names that row holds.
func first(row map[string]string, names ...string) string {
	for _, n := range names {
		if v, ok := row[n]; ok {
			return v
		}
	}
	return ""
}

// lowerKeys returns m with its keys in lower case: variables and status
// names are case-insensitive, and servers print them in either case.
func lowerKeys(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = v
	}
	return out
}
