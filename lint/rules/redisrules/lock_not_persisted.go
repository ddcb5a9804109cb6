package redisrules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// LockNotPersisted reports a Redis that keeps nothing across a restart.
var LockNotPersisted = &lint.Rule{
	Code:    "GR002",
	Name:    "lock-not-persisted",
	Summary: "appendonly no and no save points: a restart forgets every lock",
	Doc: "Without the append-only file and without RDB save points Redis keeps its keys in memory " +
		"only: a restart, a crash or the OOM killer brings it back empty, and every lock held at " +
		"that moment is free for the next SET NX while its holder goes on writing." + redisLockDoc,
	Fix: "CONFIG SET appendonly yes and CONFIG SET appendfsync always, then CONFIG REWRITE (or the service's " +
		"parameter group), so that a restart keeps the locks; save points alone lose the writes since the last snapshot",
	Kind:     lint.KindRedis,
	Severity: policy.SevError,
	Live:     true,
	Run:      runLockNotPersisted,
}

func runLockNotPersisted(p *lint.Pass) error {
	r := p.Redis
	if r == nil {
		return nil
	}
	on, known := aofEnabled(r)
	if known && on {
		return nil
	}
	if !known {
		couldNotRun(p, "appendonly", configWhy(r, "appendonly")+", and INFO persistence did not say aof_enabled",
			configFix("appendonly", "save"))
		return nil
	}
	save, ok := r.Setting("save")
	if !ok {
		couldNotRun(p, "the save points (the append-only file is off)", configWhy(r, "save"), configFix("save"))
		return nil
	}
	if strings.TrimSpace(save) != "" {
		return nil
	}
	redisFinding(p, "appendonly", "appendonly no and no save points: a restart or a crash brings Redis back empty "+
		"and forgets every lock held, so the next SET NX acquires a lock its holder still uses")
	return nil
}
