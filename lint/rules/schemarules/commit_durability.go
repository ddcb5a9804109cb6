package schemarules

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// CommitDurability reports a server that acknowledges commits it has not
// made durable.
var CommitDurability = &lint.Rule{
	Code:    "GS011",
	Name:    "commit-durability",
	Summary: "live: a server that takes writes has innodb_flush_log_at_trx_commit != 1, or sync_binlog != 1 with the binary log on",
	Doc: "A conditional UPDATE, a version CAS and a CHECK make the database refuse an oversell; " +
		"they are worth what the commit that follows them is worth. With innodb_flush_log_at_trx_commit = 2 " +
		"InnoDB writes its redo log at COMMIT and flushes it to disk about once a second (0: writes and " +
		"flushes once a second), so a crash of the host loses up to a second of commits the application " +
		"was told succeeded: the deduction that returned RowsAffected == 1 is undone after the restart, and " +
		"the stock it took is sold again. With the binary log on, sync_binlog != 1 leaves the binary log to " +
		"the operating system's flushes: a crash can lose commits the replicas already received (they then " +
		"hold deductions the restarted primary lacks) or keep in InnoDB commits the binary log lost, which " +
		"no replica ever receives. A replica loses what it applied and fetches it again only while its " +
		"source still has it; once promoted, its settings are the primary's. On a Galera cluster a commit is " +
		"certified on every node before it is acknowledged, so the finding is a warning there.",
	Fix: "SET PERSIST innodb_flush_log_at_trx_commit = 1 and SET PERSIST sync_binlog = 1 (MySQL 8), or SET GLOBAL " +
		"and the same lines in the server configuration (MariaDB): each commit group is then flushed before " +
		"COMMIT returns, a cost group commit shares between concurrent commits",
	Kind:      lint.KindSchema,
	Severity:  policy.SevError,
	Live:      true,
	PerServer: true,
	Run:       runCommitDurability,
}

func runCommitDurability(p *lint.Pass) error {
	d := durabilityOf(p)
	if d == nil {
		return nil
	}
	if d.VariablesErr != "" {
		cannotTell(p, d, "whether the server flushes its commits to disk", "SHOW GLOBAL VARIABLES failed: "+d.VariablesErr,
			"run the audit with an account that may read the global variables (SHOW GLOBAL VARIABLES needs no privilege "+
				"on MySQL and MariaDB: a proxy in between may refuse it)")
		return nil
	}
	replica, replicaKnown := d.IsReplica()
	readOnly, _ := d.On("read_only")
	superReadOnly, _ := d.On("super_read_only")
	if (readOnly || superReadOnly) && replicaKnown && !replica {
		// A read-only server that replicates from nothing takes no writes.
		return nil
	}
	sev := policy.Severity("")
	after := ""
	if galera, _ := d.On("wsrep_on"); galera {
		sev = lesser(p)
		after = "; on this Galera node a commit is certified on every node before it is acknowledged, so only a crash " +
			"of every node at once loses it"
	}
	if replica {
		after += "; this server is " + replicaOfText(d) + ": it fetches again what a crash loses only while its " +
			"source still has it, and once it is promoted these are the primary's settings"
	}
	flush, ok := d.Var("innodb_flush_log_at_trx_commit")
	switch {
	case !ok:
		cannotTell(p, d, "whether InnoDB flushes its log at each commit", "the server did not return innodb_flush_log_at_trx_commit",
			"read it by hand: SELECT @@GLOBAL.innodb_flush_log_at_trx_commit")
	case !flushesAtCommit(flush):
		serverFinding(p, d, sev, "@@global.innodb_flush_log_at_trx_commit", flushMessage(flush)+after,
			persistently(d, "innodb_flush_log_at_trx_commit", "1")+
				": InnoDB then flushes its log before COMMIT returns, a cost group commit shares between concurrent commits",
			settingsOf(d, "innodb_flush_log_at_trx_commit"))
	}
	if on, _ := d.On("log_bin"); !on {
		return nil
	}
	sync, ok := d.Var("sync_binlog")
	switch {
	case !ok:
		cannotTell(p, d, "whether the binary log is flushed at each commit", "the server did not return sync_binlog",
			"read it by hand: SELECT @@GLOBAL.sync_binlog")
	case strings.TrimSpace(sync) != "1":
		serverFinding(p, d, sev, "@@global.sync_binlog", syncBinlogMessage(sync)+after,
			persistently(d, "sync_binlog", "1")+", with innodb_flush_log_at_trx_commit = 1: the binary log and InnoDB "+
				"then agree after a crash on which commits happened",
			settingsOf(d, "sync_binlog", "log_bin"))
	}
	return nil
}

// flushesAtCommit reports whether a value of innodb_flush_log_at_trx_commit
// flushes the redo log before COMMIT returns: 1, and MariaDB's 3 (1 with
// the group commit of MariaDB 5.5).
func flushesAtCommit(v string) bool {
	v = strings.TrimSpace(v)
	return v == "1" || v == "3"
}

// flushMessage says what a crash loses under innodb_flush_log_at_trx_commit
// = v.
func flushMessage(v string) string {
	const lost = " of commits the application was told succeeded: a deduction that returned RowsAffected == 1 is " +
		"undone after the restart, and the stock it took is sold again"
	switch strings.TrimSpace(v) {
	case "0":
		return "innodb_flush_log_at_trx_commit = 0: InnoDB writes and flushes its redo log about once a second, not at " +
			"COMMIT, so a crash of the server, even of the database process alone, loses up to a second" + lost
	case "2":
		return "innodb_flush_log_at_trx_commit = 2: InnoDB writes its redo log at COMMIT but flushes it to disk about " +
			"once a second, so a crash of the host (power, kernel, virtual machine) loses up to a second" + lost
	}
	return "innodb_flush_log_at_trx_commit = " + v + ": InnoDB does not flush its redo log at COMMIT, so a crash loses " +
		"the last" + lost
}

// syncBinlogMessage says what a crash does to the binary log under
// sync_binlog = v.
func syncBinlogMessage(v string) string {
	when := "when the operating system flushes it, not at COMMIT"
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 1 {
		when = "every " + strconv.Itoa(n) + " commit groups, not at each COMMIT"
	}
	return "sync_binlog = " + v + " with the binary log on: the binary log reaches the disk " + when +
		", so a crash of the host can lose commits the replicas already received (they then hold deductions the " +
		"restarted primary lacks) or keep in InnoDB commits the binary log lost, which no replica ever receives"
}
