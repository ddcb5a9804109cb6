package redisrules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// AsyncFailoverWindow reports a primary that acknowledges writes no replica
// has.
var AsyncFailoverWindow = &lint.Rule{
	Code:    "GR004",
	Name:    "async-failover-window",
	Summary: "a primary with replicas (or one Sentinel watches) and min-replicas-to-write 0: a failover can promote a replica that never saw the lock",
	Doc: "Redis replication is asynchronous: the primary answers OK to SET NX before any replica " +
		"has the key. When the primary fails, Sentinel (or an operator) promotes a replica, and a " +
		"lock acquired in the last moments before the failure is missing on the new primary: the " +
		"next SET NX succeeds while the first holder still writes. min-replicas-to-write with " +
		"min-replicas-max-lag makes the primary refuse writes when no replica keeps up, which " +
		"narrows the window; it does not make replication synchronous." + redisLockDoc,
	Fix: "CONFIG SET min-replicas-to-write 1 and CONFIG SET min-replicas-max-lag 10 on the primary (and in its " +
		"configuration, for every node that can become primary); WAIT 1 <ms> after SET NX narrows the window further. " +
		"Neither closes it: the write the lock protects must be guarded in the database",
	Kind:     lint.KindRedis,
	Severity: policy.SevWarning,
	Live:     true,
	Run:      runAsyncFailoverWindow,
}

func runAsyncFailoverWindow(p *lint.Pass) error {
	r := p.Redis
	if r == nil {
		return nil
	}
	role := r.Role()
	if role == "" && r.Sentinel == "" {
		couldNotRun(p, "whether the server has replicas", "INFO replication failed: "+r.InfoErr,
			"allow the audit's account INFO (ACL: +info), or run redis-cli INFO replication by hand")
		return nil
	}
	if role != "" && role != "master" || len(r.Replicas) == 0 && r.Sentinel == "" {
		return nil
	}
	toWrite, ok1 := r.Setting("min-replicas-to-write")
	maxLag, ok2 := r.Setting("min-replicas-max-lag")
	if !ok1 || !ok2 {
		couldNotRun(p, "min-replicas-to-write of a primary with replicas", configWhy(r, "min-replicas-to-write"),
			configFix("min-replicas-to-write", "min-replicas-max-lag"))
		return nil
	}
	n, _ := strconv.Atoi(toWrite)
	lag, _ := strconv.Atoi(maxLag)
	if n > 0 && lag > 0 {
		return nil
	}
	setting := "min-replicas-to-write 0"
	if n > 0 {
		setting = "min-replicas-max-lag 0 (which turns min-replicas-to-write " + toWrite + " off)"
	}
	redisFinding(p, "min-replicas-to-write", primaryOf(r)+" and "+setting+
		": a write is acknowledged before any replica has it, so a failover can promote a replica that never saw "+
		"the lock, and the next SET NX acquires it while its holder still writes")
	return nil
}

// primaryOf describes the audited primary: its replicas with their lag and
// the Sentinel that watches it.
func primaryOf(r *lint.Redis) string {
	var b strings.Builder
	b.WriteString("primary")
	if r.Sentinel != "" {
		b.WriteString(" watched by Sentinel " + r.Sentinel)
		if len(r.Replicas) > 0 {
			b.WriteString(",")
		}
	}
	switch len(r.Replicas) {
	case 0:
		b.WriteString(" with no replica connected")
	case 1:
		b.WriteString(" with 1 replica (")
	default:
		fmt.Fprintf(&b, " with %d replicas (", len(r.Replicas))
	}
	for i, rep := range r.Replicas {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(rep.String())
	}
	if len(r.Replicas) > 0 {
		b.WriteString(")")
	}
	return b.String()
}
