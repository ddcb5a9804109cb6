package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// auditAddr audits the Redis address addr with the whole registry and
// fails t when the server could not be audited.
func auditAddr(t *testing.T, addr string, opts Options) *TargetResult {
	t.Helper()
	r, err := target.ParseRedis(addr)
	if err != nil {
		t.Fatal(err)
	}
	opts.Rules = rules.All()
	res := AuditRedis(context.Background(), r, opts)
	if res.Err != nil {
		t.Fatalf("audit %s: %v", r, res.Err)
	}
	return res
}

// codes returns the code and severity of each finding.
func codes(fs []lint.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Code+" "+string(f.Severity))
	}
	return out
}

func setKeys(t *testing.T, r *dbtest.RedisServer, ttl time.Duration, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := r.Client().Set(context.Background(), k, "token", ttl).Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAuditRedisLosesLocks is the server the seed warns of: no persistence,
// a memory limit evicting keys with a TTL, and a lock set without one.
func TestAuditRedisLosesLocks(t *testing.T) {
	r := dbtest.RedisWith(t, "--save", "", "--appendonly", "no", "--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru")
	setKeys(t, r, 0, "lock:order:1", "cache:order:1")
	setKeys(t, r, time.Minute, "lock:order:2")
	res := auditAddr(t, r.Addr(), Options{})
	if d := cmp.Diff([]string{"GR001 error", "GR002 error", "GR005 error"}, codes(res.Findings)); d != "" {
		t.Fatalf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
	want := "redis://" + r.Addr()
	for _, f := range res.Findings {
		if f.Target != want || f.File != "" {
			t.Errorf("%s: target %q file %q, want target %q", f.Code, f.Target, f.File, want)
		}
	}
	for code, msg := range map[int]string{
		0: "maxmemory 64mb with maxmemory-policy volatile-lru",
		1: "appendonly no and no save points",
		2: `1 of the 2 keys matching lock:* in db 0 has no TTL ("lock:order:1")`,
	} {
		if !strings.Contains(res.Findings[code].Message, msg) {
			t.Errorf("%s message %q lacks %q", res.Findings[code].Code, res.Findings[code].Message, msg)
		}
	}
	if res.Redis == nil || res.Redis.Locks == nil || res.Redis.Locks.Examined != 2 {
		t.Errorf("lock scan = %+v, want 2 keys examined", res.Redis)
	}
}

// TestAuditRedisKeepsLocks is the configuration the rules ask for: the
// append-only file synced on every write, no eviction, and locks with a
// TTL. Nothing is an error or a warning.
func TestAuditRedisKeepsLocks(t *testing.T) {
	r := dbtest.RedisWith(t, "--appendonly", "yes", "--appendfsync", "always", "--maxmemory", "64mb", "--maxmemory-policy", "noeviction")
	setKeys(t, r, 3*time.Second, "lock:order:1", "lock:sku:7")
	setKeys(t, r, 0, "session:1")
	res := auditAddr(t, r.Addr(), Options{})
	if len(res.Findings) != 0 {
		t.Errorf("findings: %v", res.Findings)
	}
}

// TestAuditRedisFsyncWindow: the append-only file synced every second is
// GR003, not GR002.
func TestAuditRedisFsyncWindow(t *testing.T) {
	r := dbtest.RedisWith(t, "--appendonly", "yes", "--appendfsync", "everysec")
	res := auditAddr(t, r.Addr(), Options{})
	if d := cmp.Diff([]string{"GR003 warning"}, codes(res.Findings)); d != "" {
		t.Errorf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
}

// TestAuditRedisReplicas: a primary with a replica and min-replicas-to-write
// 0 is GR004, naming the replica; min-replicas-to-write 1 is not.
func TestAuditRedisReplicas(t *testing.T) {
	primary := dbtest.RedisWith(t, "--appendonly", "yes", "--appendfsync", "always")
	// The replica keeps no append-only file: one rewriting it after the
	// first sync takes seconds to stop, and the rules judge the primary.
	replica := dbtest.RedisReplicaOf(t, primary)
	res := auditAddr(t, primary.Addr(), Options{})
	if d := cmp.Diff([]string{"GR004 warning"}, codes(res.Findings)); d != "" {
		t.Fatalf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
	if msg := res.Findings[0].Message; !strings.Contains(msg, "with 1 replica ("+replica.Addr()+" online, lag ") ||
		!strings.Contains(msg, "min-replicas-to-write 0") {
		t.Errorf("GR004 message: %s", msg)
	}

	if err := primary.Client().ConfigSet(context.Background(), "min-replicas-to-write", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if res := auditAddr(t, primary.Addr(), Options{}); len(res.Findings) != 0 {
		t.Errorf("with min-replicas-to-write 1: %v", res.Findings)
	}
	// The replica is not a primary with replicas (GR004), but the one a
	// failover promotes: its own persistence counts.
	if res := auditAddr(t, replica.Addr(), Options{}); !cmp.Equal(codes(res.Findings), []string{"GR002 error"}) {
		t.Errorf("replica: %v", codes(res.Findings))
	}
}

// TestAuditRedisSentinel audits the primary a Sentinel names and lists its
// replica: GR004 fires through the Sentinel too.
func TestAuditRedisSentinel(t *testing.T) {
	s := dbtest.Sentinel(t)
	res := auditAddr(t, "sentinel://"+s.SentinelAddrs()[0]+"/"+s.MasterName(), Options{})
	if res.Target != "redis://"+s.Master().Addr() {
		t.Errorf("target = %q, want the primary redis://%s", res.Target, s.Master().Addr())
	}
	var gr004 *lint.Finding
	for i, f := range res.Findings {
		if f.Code == "GR004" {
			gr004 = &res.Findings[i]
		}
	}
	if gr004 == nil {
		t.Fatalf("no GR004 in %v", codes(res.Findings))
	}
	for _, want := range []string{"watched by Sentinel " + s.SentinelAddrs()[0] + "/" + s.MasterName(), s.Replica().Addr() + " online, lag "} {
		if !strings.Contains(gr004.Message, want) {
			t.Errorf("GR004 message %q lacks %q", gr004.Message, want)
		}
	}
	if line := DescribeRedis(res.Redis); !strings.Contains(line, "1 replica: "+s.Replica().Addr()) {
		t.Errorf("summary %q does not list the replica", line)
	}
}

// TestAuditRedisConfigRenamed is a managed Redis without CONFIG: each check
// that needs it is an info finding saying it could not run, and what INFO
// shows is still checked.
func TestAuditRedisConfigRenamed(t *testing.T) {
	r := dbtest.RedisWith(t, "--rename-command", "CONFIG", "", "--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru")
	res := auditAddr(t, r.Addr(), Options{})
	if d := cmp.Diff([]string{"GR001 error", "GR002 info"}, codes(res.Findings)); d != "" {
		t.Fatalf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
	if msg := res.Findings[1].Message; !strings.Contains(msg, "could not check the save points") || !strings.Contains(msg, "CONFIG GET failed") {
		t.Errorf("GR002 message: %s", msg)
	}

	// With the append-only file on, GR003 cannot tell the fsync policy.
	aof := dbtest.RedisWith(t, "--rename-command", "CONFIG", "", "--appendonly", "yes")
	res = auditAddr(t, aof.Addr(), Options{})
	if d := cmp.Diff([]string{"GR003 info"}, codes(res.Findings)); d != "" {
		t.Errorf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
}

// TestAuditRedisScanCap: the scan stops at its bound and says so.
func TestAuditRedisScanCap(t *testing.T) {
	r := dbtest.RedisWith(t, "--appendonly", "yes", "--appendfsync", "always")
	keys := make([]string, 30)
	for i := range keys {
		keys[i] = "lock:sku:" + strings.Repeat("x", i+1)
	}
	setKeys(t, r, time.Minute, keys...)
	res := auditAddr(t, r.Addr(), Options{LockScanCap: 10})
	if d := cmp.Diff([]string{"GR005 info"}, codes(res.Findings)); d != "" {
		t.Fatalf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
	if msg := res.Findings[0].Message; !strings.Contains(msg, "the first 10 keys matching lock:*") || !strings.Contains(msg, "not examined") {
		t.Errorf("GR005 message: %s", msg)
	}
	if s := res.Redis.Locks; !s.Capped || s.Examined != 10 {
		t.Errorf("scan = %+v, want capped at 10", s)
	}

	setKeys(t, r, 0, "lock:sku:stuck")
	pol := policy.Default()
	pol.Lock.KeyPattern = "lock:sku:stuck"
	res = auditAddr(t, r.Addr(), Options{Policy: pol})
	if d := cmp.Diff([]string{"GR005 error"}, codes(res.Findings)); d != "" {
		t.Errorf("pattern from the policy (-want +got):\n%s\n%v", d, res.Findings)
	}
}

// TestAuditRedisUnreachable is a failed target, not a clean one, and its
// error holds no password.
func TestAuditRedisUnreachable(t *testing.T) {
	r := dbtest.RedisWithPassword(t, "s3cret-pass")
	for _, addr := range []string{"redis://:wrong-pass@" + r.Addr() + "/0", "redis://:s3cret-pass@127.0.0.1:1/0"} {
		rd, err := target.ParseRedis(addr)
		if err != nil {
			t.Fatal(err)
		}
		res := AuditRedis(context.Background(), rd, Options{Rules: rules.All(), Timeout: 5 * time.Second})
		if res.Err == nil {
			t.Errorf("%s: no error", rd)
			continue
		}
		for _, pw := range []string{"wrong-pass", "s3cret-pass"} {
			if strings.Contains(res.Err.Error(), pw) {
				t.Errorf("error shows the password: %v", res.Err)
			}
		}
	}
}

// TestAuditRedisACLDenied is a managed Redis's audit account: an ACL user
// without CONFIG and SCAN. Each check they feed says it could not run; the
// user:password of the URL works.
func TestAuditRedisACLDenied(t *testing.T) {
	r := dbtest.RedisWith(t, "--user", "auditor", "on", ">aud1tor-pass", "~*", "&*", "+@all", "-config", "-scan")
	res := auditAddr(t, "redis://auditor:aud1tor-pass@"+r.Addr(), Options{})
	if d := cmp.Diff([]string{"GR002 info", "GR005 info"}, codes(res.Findings)); d != "" {
		t.Fatalf("findings (-want +got):\n%s\n%v", d, res.Findings)
	}
	for _, f := range res.Findings {
		if !strings.Contains(f.Message, "could not check") || !strings.Contains(f.Message, "NOPERM") {
			t.Errorf("%s: %s", f.Code, f.Message)
		}
	}
}

// TestAuditRedisSentinelPassword: sentinel://:pass@ with a password the
// primary asks for and the sentinel does not: the audit asks the sentinel
// without it, the primary with it, and prints it nowhere.
func TestAuditRedisSentinelPassword(t *testing.T) {
	const password = "sent1nel-Secret"
	s := dbtest.SentinelWithPassword(t, password)
	res := auditAddr(t, "sentinel://:"+password+"@"+s.SentinelAddrs()[0]+"/"+s.MasterName(), Options{})
	if res.Target != "redis://"+s.Master().Addr() {
		t.Errorf("target = %q", res.Target)
	}
	if !cmp.Equal(codes(res.Findings), []string{"GR002 error", "GR004 warning"}) {
		t.Errorf("findings: %v", res.Findings)
	}
	for _, f := range res.Findings {
		if strings.Contains(f.Message+f.Fix+f.Target, password) {
			t.Errorf("%s shows the password", f.Code)
		}
	}
}
