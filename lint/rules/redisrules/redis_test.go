package redisrules

import (
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// runRedisRule runs rule on facts and returns "CODE severity: message" of
// each finding.
func runRedisRule(t *testing.T, rule *lint.Rule, pol *policy.Policy, facts *lint.Redis) []string {
	t.Helper()
	var out []string
	pass := lint.NewPass(rule, pol, nil, nil, nil, nil, func(f lint.Finding) {
		if f.Target != facts.Target {
			t.Errorf("%s: target %q, want %q", f.Code, f.Target, facts.Target)
		}
		out = append(out, f.Code+" "+string(f.Severity)+": "+f.Message)
	})
	pass.Redis = facts
	if err := rule.Run(pass); err != nil {
		t.Fatal(err)
	}
	return out
}

// standalone is a server with persistence and no eviction: every rule is
// silent on it.
func standalone() *lint.Redis {
	return &lint.Redis{
		Target: "redis://h:6379",
		Config: map[string]string{
			"maxmemory": "0", "maxmemory-policy": "noeviction", "appendonly": "yes", "appendfsync": "always",
			"save": "", "min-replicas-to-write": "0", "min-replicas-max-lag": "10",
		},
		Info:  map[string]string{"role": "master", "aof_enabled": "1"},
		Locks: &lint.LockScan{Pattern: "lock:*", Examined: 3},
	}
}

func TestRedisRules(t *testing.T) {
	noConfig := func(r *lint.Redis) {
		r.Config, r.ConfigErr = map[string]string{}, "NOPERM this user has no permissions to run the 'config|get' command"
	}
	tests := []struct {
		name   string
		rule   *lint.Rule
		change func(*lint.Redis)
		want   string // a part of the one finding; "" for none
	}{
		{"clean GR001", LockEvictable, nil, ""},
		{"no limit", LockEvictable, func(r *lint.Redis) { r.Config["maxmemory-policy"] = "allkeys-lru" }, ""},
		{"allkeys", LockEvictable, func(r *lint.Redis) {
			r.Config["maxmemory"], r.Config["maxmemory-policy"] = "1073741824", "allkeys-lfu"
		}, "GR001 error: maxmemory 1gb with maxmemory-policy allkeys-lfu: when memory runs out Redis evicts any key (locks included)"},
		{"volatile", LockEvictable, func(r *lint.Redis) {
			r.Config["maxmemory"], r.Config["maxmemory-policy"] = "100000", "volatile-ttl"
		}, "maxmemory 100000 bytes with maxmemory-policy volatile-ttl: when memory runs out Redis evicts keys that have a TTL (every lock)"},
		{"noeviction with a limit", LockEvictable, func(r *lint.Redis) { r.Config["maxmemory"] = "67108864" }, ""},
		{"from INFO memory", LockEvictable, func(r *lint.Redis) {
			noConfig(r)
			r.Info["maxmemory"], r.Info["maxmemory_policy"] = "67108864", "volatile-lru"
		}, "GR001 error: maxmemory 64mb with maxmemory-policy volatile-lru"},
		{"unknown", LockEvictable, func(r *lint.Redis) { noConfig(r); r.InfoErr = "ERR unknown command 'INFO'" },
			"GR001 info: could not check maxmemory and maxmemory-policy: CONFIG GET failed: NOPERM"},

		{"aof on", LockNotPersisted, nil, ""},
		{"save points", LockNotPersisted, func(r *lint.Redis) { r.Config["appendonly"], r.Config["save"] = "no", "3600 1" }, ""},
		{"nothing kept", LockNotPersisted, func(r *lint.Redis) { r.Config["appendonly"] = "no" }, "GR002 error: appendonly no and no save points"},
		{"aof on by INFO", LockNotPersisted, noConfig, ""},
		{"save unknown", LockNotPersisted, func(r *lint.Redis) { noConfig(r); r.Info["aof_enabled"] = "0" },
			"GR002 info: could not check the save points (the append-only file is off): CONFIG GET failed"},

		{"always", LockFsyncWindow, nil, ""},
		{"everysec", LockFsyncWindow, func(r *lint.Redis) { r.Config["appendfsync"] = "everysec" }, "GR003 warning: append-only file with appendfsync everysec"},
		{"no", LockFsyncWindow, func(r *lint.Redis) { r.Config["appendfsync"] = "no" }, "GR003 warning: append-only file with appendfsync no"},
		{"aof off", LockFsyncWindow, func(r *lint.Redis) { r.Config["appendonly"], r.Config["appendfsync"] = "no", "no" }, ""},
		{"fsync unknown", LockFsyncWindow, noConfig, "GR003 info: could not check appendfsync (the append-only file is on)"},

		{"no replicas", AsyncFailoverWindow, nil, ""},
		{"replica", AsyncFailoverWindow, func(r *lint.Redis) {
			r.Replicas = []lint.RedisReplica{{Addr: "h:6380", State: "online", LagSeconds: 1, BytesBehind: 42}}
		}, "GR004 warning: primary with 1 replica (h:6380 online, lag 1s, 42 bytes behind) and min-replicas-to-write 0: "},
		{"guarded", AsyncFailoverWindow, func(r *lint.Redis) {
			r.Replicas = []lint.RedisReplica{{Addr: "h:6380", LagSeconds: -1, BytesBehind: -1}}
			r.Config["min-replicas-to-write"] = "1"
		}, ""},
		{"max lag 0", AsyncFailoverWindow, func(r *lint.Redis) {
			r.Sentinel = "s:26379/mymaster"
			r.Config["min-replicas-to-write"], r.Config["min-replicas-max-lag"] = "1", "0"
		}, "primary watched by Sentinel s:26379/mymaster with no replica connected and min-replicas-max-lag 0 (which turns min-replicas-to-write 1 off)"},
		{"a replica", AsyncFailoverWindow, func(r *lint.Redis) {
			r.Info["role"] = "slave"
			r.Replicas = []lint.RedisReplica{{Addr: "h:6381", LagSeconds: -1, BytesBehind: -1}}
		}, ""},
		{"replicas, no config", AsyncFailoverWindow, func(r *lint.Redis) {
			noConfig(r)
			r.Replicas = []lint.RedisReplica{{Addr: "h:6380", LagSeconds: -1, BytesBehind: -1}}
		}, "GR004 info: could not check min-replicas-to-write of a primary with replicas"},
		{"no INFO", AsyncFailoverWindow, func(r *lint.Redis) { r.Info, r.InfoErr = map[string]string{}, "NOPERM info" },
			"GR004 info: could not check whether the server has replicas: INFO replication failed: NOPERM info"},

		{"all with TTL", LockWithoutTTL, nil, ""},
		{"without TTL", LockWithoutTTL, func(r *lint.Redis) {
			r.Locks = &lint.LockScan{Pattern: "lock:*", DB: 2, Examined: 12345, WithoutTTL: 7, Capped: true,
				Samples: []string{"lock:a", "lock:b", "lock:c", "lock:d", "lock:e"}}
		}, `GR005 error: 7 of the first 12,345 keys matching lock:* in db 2 have no TTL ("lock:a", "lock:b", "lock:c", "lock:d", "lock:e", …): ` +
			"a holder that crashed or lost its connection before releasing keeps the lock forever; the scan stopped there"},
		{"one key", LockWithoutTTL, func(r *lint.Redis) {
			r.Locks = &lint.LockScan{Pattern: "lock:*", Examined: 1, WithoutTTL: 1, Samples: []string{"lock:x"}}
		}, `GR005 error: 1 of the 1 key matching lock:* in db 0 has no TTL ("lock:x")`},
		{"capped clean", LockWithoutTTL, func(r *lint.Redis) { r.Locks.Capped, r.Locks.Examined = true, 10000 },
			"GR005 info: could not check every lock key: the first 10,000 keys matching lock:* in db 0 all have a TTL; the scan stopped there"},
		{"scan denied", LockWithoutTTL, func(r *lint.Redis) { r.Locks, r.LocksErr = nil, "SCAN failed: NOPERM" },
			"GR005 info: could not check the TTLs of the lock keys (lock:*): SCAN failed: NOPERM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := standalone()
			if tt.change != nil {
				tt.change(facts)
			}
			got := runRedisRule(t, tt.rule, policy.Default(), facts)
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("want no finding, got %q", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("got %q, want one finding holding %q", got, tt.want)
			}
		})
	}
}

// TestRedisRuleOff: a rule turned off in the policy says nothing, not even
// that it could not run.
func TestRedisRuleOff(t *testing.T) {
	pol := policy.Default()
	pol.Rules.GR001 = policy.SevOff
	facts := standalone()
	facts.Config, facts.ConfigErr = map[string]string{}, "ERR unknown command 'CONFIG'"
	got := runRedisRule(t, LockEvictable, pol, facts)
	if len(got) != 0 {
		t.Errorf("rule off: %q", got)
	}
}
