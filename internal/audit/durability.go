package audit

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// ServerRows are the answers a server gave to what GS011, GS012 and TiDB's
// GS002 ask of it, kept as the server gave them: the audit reads them with
// readServerRows, and the tests feed recorded ones (testdata/server_*.json,
// written from the servers' documented outputs where no such server runs
// here) through the same serverFacts. A question the server refused keeps
// the refusal instead of an answer.
type ServerRows struct {
	// Version is @@version.
	Version string `json:"version"`
	// TiDBVersion is tidb_version(), read when the variables show TiDB and
	// the version string hides it (a configured server-version).
	TiDBVersion string `json:"tidb_version,omitempty"`
	// Variables are the rows of SHOW GLOBAL VARIABLES for the names of
	// serverVariables, by Variable_name.
	Variables      map[string]string `json:"variables"`
	VariablesError string            `json:"variables_error,omitempty"`
	// Status are the rows of SHOW GLOBAL STATUS for the names of
	// serverStatus, read where a question needs them.
	Status      map[string]string `json:"status,omitempty"`
	StatusError string            `json:"status_error,omitempty"`
	// ReplicaStatus are the rows of SHOW REPLICA STATUS (SHOW ALL SLAVES
	// STATUS on MariaDB, SHOW SLAVE STATUS before MySQL 8.0.22), column by
	// column.
	ReplicaStatus      []map[string]string `json:"replica_status,omitempty"`
	ReplicaStatusError string              `json:"replica_status_error,omitempty"`
	// ReplicaHosts are the rows of SHOW REPLICAS (SHOW SLAVE HOSTS on
	// MariaDB and before MySQL 8.0.22), read when the binary log is on.
	ReplicaHosts      []map[string]string `json:"replica_hosts,omitempty"`
	ReplicaHostsError string              `json:"replica_hosts_error,omitempty"`
	// DumpThreads are the hosts of the binlog dump threads PROCESSLIST
	// shows, read when SHOW REPLICAS is refused; SeesAllThreads says the
	// account holds PROCESS, without which PROCESSLIST shows its own
	// threads only and no dump thread proves none.
	DumpThreads      []string `json:"dump_threads,omitempty"`
	DumpThreadsError string   `json:"dump_threads_error,omitempty"`
	SeesAllThreads   bool     `json:"sees_all_threads,omitempty"`
}

// serverVariables are the global variables the durability rules read, on
// every flavor: those a server lacks are simply not returned.
var serverVariables = []string{
	"log_bin", "sync_binlog", "innodb_flush_log_at_trx_commit", "binlog_format",
	"read_only", "super_read_only", "gtid_mode", "enforce_gtid_consistency",
	"rpl_semi_sync_master_enabled", "rpl_semi_sync_master_wait_point",
	"rpl_semi_sync_source_enabled", "rpl_semi_sync_source_wait_point",
	"wsrep_on",
	"tidb_enable_check_constraint", "tidb_txn_mode", "tidb_disable_txn_auto_retry",
}

// serverStatus are the status variables read: how many replication
// connections MariaDB runs and serves, which no privilege hides, and
// whether semi-synchronous replication is in effect.
var serverStatus = []string{
	"Slaves_running", "Slaves_connected",
	"Rpl_semi_sync_master_status", "Rpl_semi_sync_master_clients",
	"Rpl_semi_sync_source_status", "Rpl_semi_sync_source_clients",
}

// queryDumpThreads lists the hosts of the binlog dump threads and whether
// the account holds PROCESS, without which PROCESSLIST hides them.
const queryDumpThreads = `SELECT
  (SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES u WHERE u.GRANTEE = me.g AND u.PRIVILEGE_TYPE = 'PROCESS'),
  (SELECT GROUP_CONCAT(p.HOST SEPARATOR ',') FROM information_schema.PROCESSLIST p WHERE p.COMMAND LIKE 'Binlog Dump%')
FROM (SELECT CONCAT(QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', 1)), '@', QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', -1))) AS g) AS me`

// readServerRows asks the server how it keeps commits and replicates, with
// the privileges an auditor has: a refused question keeps its refusal and
// the audit goes on. Only a context that ended fails it.
func readServerRows(ctx context.Context, q lint.Querier, srv schema.Server) (*ServerRows, error) {
	r := &ServerRows{Version: srv.Version}
	var err error
	r.Variables, r.VariablesError, err = readNameValues(ctx, q, "SHOW GLOBAL VARIABLES", serverVariables)
	if err != nil {
		return nil, err
	}
	if _, tidb := r.Variables["tidb_txn_mode"]; tidb && !srv.IsTiDB() {
		rows, msg, err := readRows(ctx, q, "SELECT tidb_version() AS v")
		if err != nil {
			return nil, err
		}
		if msg == "" && len(rows) > 0 {
			r.TiDBVersion = rows[0]["v"]
		}
	}
	if srv.IsTiDB() || r.TiDBVersion != "" || r.VariablesError != "" {
		// TiDB keeps commits in TiKV's Raft log, not by these settings;
		// without the variables nothing below can be judged.
		return r, nil
	}
	mariadb := srv.Flavor == schema.FlavorMariaDB
	status := "SHOW SLAVE STATUS"
	switch {
	case mariadb:
		status = "SHOW ALL SLAVES STATUS"
	case srv.NamesReplicas():
		status = "SHOW REPLICA STATUS"
	}
	if r.ReplicaStatus, r.ReplicaStatusError, err = readRows(ctx, q, status); err != nil {
		return nil, err
	}
	if lint.SettingOn(r.Variables["log_bin"]) {
		hosts := "SHOW SLAVE HOSTS"
		if srv.NamesReplicas() {
			hosts = "SHOW REPLICAS"
		}
		if r.ReplicaHosts, r.ReplicaHostsError, err = readRows(ctx, q, hosts); err != nil {
			return nil, err
		}
		if r.ReplicaHostsError != "" {
			if err := readDumpThreads(ctx, q, r); err != nil {
				return nil, err
			}
		}
	}
	if needsStatus(r, mariadb) {
		if r.Status, r.StatusError, err = readNameValues(ctx, q, "SHOW GLOBAL STATUS", serverStatus); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// needsStatus says whether the status variables answer a question the
// other reads left open: MariaDB's replication counters where SHOW … STATUS
// or SHOW SLAVE HOSTS was refused, and whether semi-synchronous replication
// that is enabled is in effect.
func needsStatus(r *ServerRows, mariadb bool) bool {
	if mariadb && (r.ReplicaStatusError != "" || r.ReplicaHostsError != "") {
		return true
	}
	return lint.SettingOn(r.Variables["rpl_semi_sync_master_enabled"]) || lint.SettingOn(r.Variables["rpl_semi_sync_source_enabled"])
}

// readDumpThreads fills DumpThreads and SeesAllThreads.
func readDumpThreads(ctx context.Context, q lint.Querier, r *ServerRows) error {
	rows, err := q.QueryContext(ctx, queryDumpThreads)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("read binlog dump threads: %w", err)
		}
		r.DumpThreadsError = err.Error()
		return nil
	}
	defer rows.Close()
	var process int
	var hosts sql.NullString
	if rows.Next() {
		if err := rows.Scan(&process, &hosts); err != nil {
			r.DumpThreadsError = err.Error()
			return nil
		}
	}
	if err := rows.Err(); err != nil {
		r.DumpThreadsError = err.Error()
		return nil
	}
	r.SeesAllThreads = process > 0
	if hosts.String != "" {
		r.DumpThreads = strings.Split(hosts.String, ",")
	}
	return nil
}

// readNameValues runs a SHOW … VARIABLES or SHOW … STATUS statement for
// names, returning its rows by name; a refusal is returned as text.
func readNameValues(ctx context.Context, q lint.Querier, show string, names []string) (map[string]string, string, error) {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + n + "'"
	}
	rows, msg, err := readRows(ctx, q, show+" WHERE Variable_name IN ("+strings.Join(quoted, ", ")+")")
	if err != nil || msg != "" {
		return nil, msg, err
	}
	out := make(map[string]string, len(rows))
	for _, row := range rows {
		out[row["Variable_name"]] = row["Value"]
	}
	return out, "", nil
}

// readRows runs a statement whose columns depend on the server (SHOW …
// STATUS) and returns each row by column name. A statement the server
// refuses is returned as its error text, with a nil error: only a context
// that ended is an error.
func readRows(ctx context.Context, q lint.Querier, query string) ([]map[string]string, string, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", fmt.Errorf("%s: %w", query, err)
		}
		return nil, err.Error(), nil
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err.Error(), nil
	}
	var out []map[string]string
	vals := make([]sql.RawBytes, len(cols))
	dest := make([]any, len(cols))
	for i := range vals {
		dest[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err.Error(), nil
		}
		row := make(map[string]string, len(cols))
		for i, c := range cols {
			row[c] = string(vals[i])
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		if ctx.Err() != nil {
			return nil, "", fmt.Errorf("%s: %w", query, err)
		}
		return nil, err.Error(), nil
	}
	return out, "", nil
}
