package redisrules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// LockFsyncWindow reports an append-only file that is not synced on every
// write.
var LockFsyncWindow = &lint.Rule{
	Code:    "GR003",
	Name:    "lock-fsync-window",
	Summary: "AOF with appendfsync everysec or no: a crash loses up to about a second of lock writes",
	Doc: "The append-only file is only as durable as its fsync: with appendfsync everysec a crash " +
		"of the host loses about the last second of writes, with appendfsync no whatever the " +
		"operating system had not flushed yet (often 30 s). The locks acquired in that window " +
		"are gone after the restart, while their holders still write." + redisLockDoc,
	Fix: "CONFIG SET appendfsync always, then CONFIG REWRITE (or the service's parameter group): every write " +
		"is on disk before Redis answers, at the cost of write latency; either way guard the write in the database",
	Kind:     lint.KindRedis,
	Severity: policy.SevWarning,
	Live:     true,
	Run:      runLockFsyncWindow,
}

func runLockFsyncWindow(p *lint.Pass) error {
	r := p.Redis
	if r == nil {
		return nil
	}
	on, known := aofEnabled(r)
	if !known {
		couldNotRun(p, "appendonly and appendfsync", configWhy(r, "appendonly"), configFix("appendonly", "appendfsync"))
		return nil
	}
	if !on {
		return nil
	}
	fsync, ok := r.Setting("appendfsync")
	if !ok {
		couldNotRun(p, "appendfsync (the append-only file is on)", configWhy(r, "appendfsync"), configFix("appendfsync"))
		return nil
	}
	switch strings.ToLower(fsync) {
	case "everysec":
		redisFinding(p, "appendfsync", "append-only file with appendfsync everysec: a crash of the host loses about "+
			"the last second of writes, and the locks acquired in it are free again after the restart")
	case "no":
		redisFinding(p, "appendfsync", "append-only file with appendfsync no: a crash of the host loses whatever the "+
			"operating system had not flushed (often 30 s of writes), and the locks acquired then are free again after the restart")
	}
	return nil
}
