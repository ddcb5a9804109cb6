package schemarules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// FailoverSafety reports replication that lets a failover lose or change
// what the primary committed.
var FailoverSafety = &lint.Rule{
	Code: "GS012",
	Name: "failover-safety",
	Summary: "live: binlog_format not ROW; a writable replica (read_only, and super_read_only on MySQL, OFF); replicas " +
		"with semi-synchronous replication off, not in effect or waiting AFTER_COMMIT; replication without GTID positioning",
	Doc: "A guard holds on the server that judged it; a failover hands the application another server. " +
		"With statement-based replication (binlog_format STATEMENT, or MIXED for the statements it deems safe) a " +
		"replica re-runs `UPDATE … WHERE stock >= ?` on its own rows instead of receiving the rows the primary " +
		"changed, so any difference between them carries on into the server a failover promotes. A replica that " +
		"accepts writes (read_only OFF; on MySQL also super_read_only OFF, since read_only lets SUPER and " +
		"CONNECTION_ADMIN accounts write) drifts from its primary with every misrouted write. Asynchronous " +
		"replication acknowledges a commit before any replica has it: a failover can promote a replica " +
		"missing the last deductions the application was told succeeded. Semi-synchronous replication waiting " +
		"AFTER_COMMIT shows the commit to other sessions before a replica has it, so a reader can act on a " +
		"deduction the failover then loses; AFTER_SYNC does not. Failover tools (Orchestrator, MHA, MaxScale, " +
		"MySQL Router) re-point the replicas to the new primary by GTID; by binary log file and position they " +
		"guess which transactions each replica has. guard reads what an auditor may read (SHOW VARIABLES, SHOW " +
		"REPLICA STATUS, SHOW REPLICAS, PROCESSLIST) and says \"cannot tell\" where the server refuses it.",
	Fix: "binlog_format = ROW; read_only = ON (MySQL: super_read_only = ON) on every replica; semi-synchronous " +
		"replication with rpl_semi_sync_source_wait_point (MariaDB: rpl_semi_sync_master_wait_point) = AFTER_SYNC " +
		"on the primary and enabled on its replicas; gtid_mode = ON with SOURCE_AUTO_POSITION = 1 (MariaDB: " +
		"MASTER_USE_GTID = slave_pos)",
	Kind:      lint.KindSchema,
	Severity:  policy.SevError,
	Live:      true,
	PerServer: true,
	Run:       runFailoverSafety,
}

func runFailoverSafety(p *lint.Pass) error {
	d := durabilityOf(p)
	if d == nil {
		return nil
	}
	if d.VariablesErr != "" {
		cannotTell(p, d, "how the server replicates", "SHOW GLOBAL VARIABLES failed: "+d.VariablesErr,
			"run the audit with an account that may read the global variables")
		return nil
	}
	logBin, _ := d.On("log_bin")
	if logBin {
		checkBinlogFormat(p, d)
	}
	replica, replicaKnown := d.IsReplica()
	switch {
	case !replicaKnown:
		cannotTell(p, d, "whether the server is a replica, and so whether it must be read-only", d.SourcesErr, replicaStatusGrant(d))
	case replica:
		checkReadOnly(p, d)
	}
	replicas := 0
	if logBin {
		n, known := d.HasReplicas()
		if !known {
			cannotTell(p, d, "whether replicas stream from this server, and so whether a failover can lose the commits it "+
				"acknowledged", d.ReplicasErr, replicaHostsGrant(d))
		} else if n > 0 {
			replicas = n
			checkSemiSync(p, d)
		}
	}
	if replica || replicas > 0 {
		checkGTID(p, d, replica)
	}
	return nil
}

// checkBinlogFormat reports statement-based replication.
func checkBinlogFormat(p *lint.Pass, d *lint.Durability) {
	format, ok := d.Var("binlog_format")
	switch strings.ToUpper(strings.TrimSpace(format)) {
	case "ROW":
		return
	case "STATEMENT":
		format = "binlog_format = STATEMENT: replicas receive each statement and run it again"
	case "MIXED":
		format = "binlog_format = MIXED: replicas receive the statements the server deems safe and run them again"
	default:
		if !ok {
			return
		}
		format = "binlog_format = " + format + ": replicas may not receive the rows the primary changed"
	}
	serverFinding(p, d, lesser(p), "@@global.binlog_format", format+", so a conditional deduction (`UPDATE … WHERE stock >= ?`) is "+
		"judged again on the replica's own rows, and any difference between them (a write made on the replica, NOW(), "+
		"LIMIT without ORDER BY, a trigger) leaves the replica a failover promotes with other counters than the primary's",
		persistently(d, "binlog_format", "ROW")+"; replicas take the format of the events they receive",
		settingsOf(d, "binlog_format", "log_bin"))
}

// checkReadOnly reports a replica that accepts writes.
func checkReadOnly(p *lint.Pass, d *lint.Durability) {
	readOnly, _ := d.On("read_only")
	super, superKnown := d.On("super_read_only")
	what := "this server is " + replicaOfText(d)
	settings := settingsOf(d, "read_only", "super_read_only")
	const drift = ": the application, a misrouted connection or a console can write on it directly, its counters then " +
		"differ from the primary's, and a failover promotes them (or replication stops on a duplicate key)"
	switch {
	case d.MariaDB && !readOnly:
		serverFinding(p, d, "", "@@global.read_only", what+" and read_only is OFF"+drift,
			persistently(d, "read_only", "ON")+" on every replica: only the replication threads and accounts with READ_ONLY "+
				"ADMIN (SUPER before MariaDB 10.5.2) write then", settings)
	case d.MariaDB:
	case !readOnly && !super:
		serverFinding(p, d, "", "@@global.read_only", what+" and read_only and super_read_only are OFF"+drift,
			"SET PERSIST super_read_only = ON on every replica (it sets read_only too): only the replication threads write then",
			settings)
	case !super && superKnown:
		serverFinding(p, d, lesser(p), "@@global.super_read_only", what+" with read_only ON but super_read_only OFF: "+
			"accounts with SUPER or CONNECTION_ADMIN (an administrator's, often the application's) still write on it, and "+
			"its counters then differ from the primary's",
			"SET PERSIST super_read_only = ON on every replica: only the replication threads write then", settings)
	}
}

// checkSemiSync reports a primary whose replicas may lack what it
// acknowledged.
func checkSemiSync(p *lint.Pass, d *lint.Durability) {
	enabledVar, waitVar, statusVar, clientsVar := "rpl_semi_sync_master_enabled", "rpl_semi_sync_master_wait_point",
		"rpl_semi_sync_master_status", "rpl_semi_sync_master_clients"
	if _, ok := d.Var("rpl_semi_sync_source_enabled"); ok {
		enabledVar, waitVar, statusVar, clientsVar = "rpl_semi_sync_source_enabled", "rpl_semi_sync_source_wait_point",
			"rpl_semi_sync_source_status", "rpl_semi_sync_source_clients"
	}
	primary := "this server streams its binary log to " + replicasText(d)
	enabled, loaded := d.On(enabledVar)
	if !enabled {
		why := enabledVar + " is OFF"
		fix := persistently(d, enabledVar, "ON") + " with " + waitVar + " = AFTER_SYNC, and rpl_semi_sync_slave_enabled = ON on the replicas"
		if !loaded {
			why = "the semisync plugin is not loaded"
			fix = "INSTALL PLUGIN rpl_semi_sync_source SONAME 'semisync_source.so' (rpl_semi_sync_master / semisync_master.so " +
				"before MySQL 8.0.26) on the primary and its replica plugin on the replicas, then SET PERSIST " +
				"rpl_semi_sync_source_enabled = ON and rpl_semi_sync_source_wait_point = AFTER_SYNC"
		}
		serverFinding(p, d, lesser(p), "@@global."+enabledVar, primary+" asynchronously ("+why+"): it acknowledges a "+
			"commit before any replica has it, and a failover can promote a replica missing the last deductions the "+
			"application was told succeeded", fix, settingsOf(d, enabledVar, "log_bin"))
		return
	}
	if wait, _ := d.Var(waitVar); strings.EqualFold(strings.TrimSpace(wait), "AFTER_COMMIT") {
		serverFinding(p, d, lesser(p), "@@global."+waitVar, primary+" semi-synchronously but waits AFTER_COMMIT ("+waitVar+
			"): other sessions see a commit before a replica acknowledges it, so a reader can act on a deduction (ship the "+
			"order) that a failover then loses", persistently(d, waitVar, "AFTER_SYNC")+": the commit is visible only once a "+
			"replica has it", settingsOf(d, enabledVar, waitVar))
		return
	}
	status, statusKnown := d.Status[statusVar]
	clients, clientsKnown := d.StatusCount(clientsVar)
	if statusKnown && !lint.SettingOn(status) || clientsKnown && clients == 0 {
		settings := settingsOf(d, enabledVar, waitVar)
		if statusKnown {
			settings[statusVar] = status
		}
		if clientsKnown {
			settings[clientsVar] = d.Status[clientsVar]
		}
		serverFinding(p, d, lesser(p), "@@global."+enabledVar, primary+" with semi-synchronous replication enabled but not "+
			"in effect (no replica acknowledges: "+statusText(statusVar, status, statusKnown, clientsVar, clients, clientsKnown)+
			"): after the wait times out the primary acknowledges commits no replica has, as asynchronous replication does",
			"SET GLOBAL rpl_semi_sync_slave_enabled = ON (MySQL 8.0.26 on: rpl_semi_sync_replica_enabled) on the replicas and "+
				"restart their receiver thread (STOP/START REPLICA IO_THREAD), and in their configuration", settings)
	}
}

// statusText prints the semi-synchronous status variables read.
func statusText(statusVar, status string, statusKnown bool, clientsVar string, clients int, clientsKnown bool) string {
	var parts []string
	if statusKnown {
		parts = append(parts, statusVar+" = "+status)
	}
	if clientsKnown {
		parts = append(parts, clientsVar+" = "+countOf(clients, "replica"))
	}
	return strings.Join(parts, ", ")
}

// checkGTID reports replication a failover tool cannot re-point by GTID.
func checkGTID(p *lint.Pass, d *lint.Durability, replica bool) {
	if d.MariaDB {
		// MariaDB writes GTIDs into every binary log; a replica chooses to
		// position by them.
		for _, s := range d.Sources {
			if strings.EqualFold(s.GTID, "No") {
				serverFinding(p, d, lesser(p), "Using_Gtid", "this server is "+replicaOfText(d)+" positioned by binary log "+
					"file and offset (Using_Gtid = No): a failover tool re-points replicas to a new primary by GTID, and by "+
					"file and offset it guesses which transactions this one has, and a wrong guess skips or repeats deductions",
					"STOP SLAVE; CHANGE MASTER TO MASTER_USE_GTID = slave_pos; START SLAVE", map[string]string{"Using_Gtid": s.GTID})
				return
			}
		}
		return
	}
	mode, ok := d.Var("gtid_mode")
	if !ok || strings.EqualFold(strings.TrimSpace(mode), "ON") {
		if ok && replica {
			checkAutoPosition(p, d)
		}
		return
	}
	role := "this server streams its binary log to " + replicasText(d)
	if replica {
		role = "this server is " + replicaOfText(d)
	}
	serverFinding(p, d, lesser(p), "@@global.gtid_mode", role+" with gtid_mode = "+mode+": a failover tool re-points replicas to "+
		"a new primary by GTID, and by binary log file and offset it guesses which transactions each replica has, and a wrong "+
		"guess skips or repeats deductions",
		"turn GTIDs on online, one step at a time on every server: SET PERSIST enforce_gtid_consistency = ON, then gtid_mode = "+
			"OFF_PERMISSIVE, ON_PERMISSIVE, ON; then CHANGE REPLICATION SOURCE TO SOURCE_AUTO_POSITION = 1 on each replica",
		settingsOf(d, "gtid_mode", "enforce_gtid_consistency"))
}

// checkAutoPosition reports a MySQL replica with GTIDs on that still
// positions by file and offset.
func checkAutoPosition(p *lint.Pass, d *lint.Durability) {
	for _, s := range d.Sources {
		if s.GTID == "file" {
			serverFinding(p, d, lesser(p), "Auto_Position", "this server is "+replicaOfText(d)+" with gtid_mode = ON but positioned "+
				"by binary log file and offset (Auto_Position = 0): a failover tool re-points it by GTID only with auto-positioning",
				"STOP REPLICA; CHANGE REPLICATION SOURCE TO SOURCE_AUTO_POSITION = 1; START REPLICA",
				map[string]string{"Auto_Position": "0", "gtid_mode": "ON"})
			return
		}
	}
}

// replicaStatusGrant is the advice when SHOW REPLICA STATUS was refused.
func replicaStatusGrant(d *lint.Durability) string {
	if d.MariaDB {
		return "GRANT SLAVE MONITOR ON *.* TO the audit account (MariaDB 10.5.9 on; REPLICATION CLIENT or SUPER before): " +
			"SHOW ALL SLAVES STATUS then answers"
	}
	return "GRANT REPLICATION CLIENT ON *.* TO the audit account: SHOW REPLICA STATUS then answers"
}

// replicaHostsGrant is the advice when neither SHOW REPLICAS nor
// PROCESSLIST told the replicas.
func replicaHostsGrant(d *lint.Durability) string {
	if d.MariaDB {
		return "GRANT REPLICATION MASTER ADMIN ON *.* TO the audit account (SHOW SLAVE HOSTS), or PROCESS (the binlog dump " +
			"threads of information_schema.PROCESSLIST)"
	}
	return "GRANT REPLICATION SLAVE ON *.* TO the audit account (SHOW REPLICAS), or PROCESS (the binlog dump threads of " +
		"information_schema.PROCESSLIST)"
}
