// Package redisrules holds the rules of guard audit --redis (GR001–GR005):
// how the Redis server a lock lives on can lose it. lint/rules lists them
// with every other rule.
package redisrules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// The seed's reasons a Redis lock is lost, shared by the Redis rules' docs.
const redisLockDoc = " A Redis lock (SET key token NX PX ttl) is lost in more ways than one: it expires while " +
	"its holder is paused, a failover promotes a replica that never received it, a restart " +
	"without persistence forgets it, and a full Redis evicts it. Each time a second holder " +
	"acquires a lock the first still believes it has, and both write. guard's thesis is that the " +
	"database must refuse the second write (a conditional UPDATE, a version CAS, CHECK); this " +
	"rule says how wide this server leaves the window."

// redisFinding reports a finding of a Redis rule on the audited server; the
// setting, when given, stands in the column slot so that findings on
// different settings stay apart.
func redisFinding(p *lint.Pass, setting, message string) {
	p.Report(lint.Finding{Target: p.Redis.Target, ColumnName: setting, Message: message})
}

// couldNotRun reports, at info severity, that a check of the rule could not
// run on the server and why: a denied or renamed command must never read as
// a clean result. Nothing is reported when the rule is off.
func couldNotRun(p *lint.Pass, what, why, fix string) {
	if p.Policy.Severity(p.Rule.Code, p.Rule.Severity) == policy.SevOff {
		return
	}
	p.Report(lint.Finding{
		Target:   p.Redis.Target,
		Severity: policy.SevInfo,
		Message:  fmt.Sprintf("could not check %s: %s", what, strings.TrimSpace(why)),
		Fix:      fix,
	})
}

// configFix is the advice of a check CONFIG GET could not run for.
func configFix(params ...string) string {
	return "allow the audit's account CONFIG GET (ACL: +config|get), or read the setting by hand: " +
		"redis-cli CONFIG GET " + strings.Join(params, " ") +
		" (on a managed service, its parameter group or console shows it)"
}

// configWhy says why a parameter is unknown.
func configWhy(r *lint.Redis, param string) string {
	if r.ConfigErr != "" {
		return "CONFIG GET failed: " + r.ConfigErr
	}
	return "CONFIG GET did not return " + param
}

// aofEnabled says whether the append-only file is on, from CONFIG GET or
// else from INFO persistence, and whether that is known.
func aofEnabled(r *lint.Redis) (on, known bool) {
	if v, ok := r.Setting("appendonly"); ok {
		return strings.EqualFold(v, "yes"), true
	}
	switch r.Info["aof_enabled"] {
	case "1":
		return true, true
	case "0":
		return false, true
	}
	return false, false
}

// humanBytes prints a maxmemory value as redis.conf writes it: 64mb, 1gb.
func humanBytes(n int64) string {
	for _, u := range []struct {
		unit string
		size int64
	}{{"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.unit
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
