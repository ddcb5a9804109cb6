package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestAuditRedisOnly: --redis without --dsn audits the Redis server alone,
// in every format, the password in the URL never printed, findings at or
// above --fail-on giving exit 1.
func TestAuditRedisOnly(t *testing.T) {
	const password = "r3dis-Secret"
	r := dbtest.RedisWithPassword(t, password, "--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru")
	if err := r.Client().Set(context.Background(), "lock:order:1", "token", 0).Err(); err != nil {
		t.Fatal(err)
	}
	addr := "redis://:" + password + "@" + r.Addr() + "/0"
	name := "redis://" + r.Addr()
	for _, format := range []string{"text", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			run := guardAudit(t, password, "--format", format, "--no-color", "--redis", addr)
			if run.code != exitFindings {
				t.Errorf("exit = %d, want %d; stderr:\n%s", run.code, exitFindings, dbtest.Redact(run.errOut))
			}
			for _, want := range []string{"GR001", "GR002", "GR005", name} {
				if !strings.Contains(run.out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, dbtest.Redact(run.out))
				}
			}
			if want := "guard: " + name + ": primary, no replica, 1 key matching lock:* in db 0 examined\n"; run.errOut != want {
				t.Errorf("stderr = %q, want %q", dbtest.Redact(run.errOut), want)
			}
		})
	}
	if run := guardAudit(t, password, "--fail-on", "never", "--redis", addr); run.code != 0 {
		t.Errorf("--fail-on never: exit %d", run.code)
	}
}

// TestAuditRedisFailure: a Redis server that refuses the password, or that
// nothing listens on, is a failed target (exit 3) named without the
// password; a malformed address is exit 2 without its text.
func TestAuditRedisFailure(t *testing.T) {
	const password = "wr0ng-Secret"
	r := dbtest.RedisWithPassword(t, "another-Secret")
	for _, addr := range []string{"redis://:" + password + "@" + r.Addr() + "/0", "redis://:" + password + "@" + closedPort(t)} {
		for _, format := range []string{"text", "json"} {
			run := guardAudit(t, password, "--format", format, "--redis", addr)
			if run.code != exitRuntime {
				t.Errorf("%s: exit = %d, want %d", format, run.code, exitRuntime)
			}
			if !strings.Contains(run.errOut, "guard: redis://127.0.0.1:") {
				t.Errorf("%s: stderr does not name the server: %s", format, dbtest.Redact(run.errOut))
			}
		}
	}
	run := guardAudit(t, password, "--redis", "redis://:"+password+"@host:port:x/0")
	if run.code != exitInput || !strings.Contains(run.errOut, "--redis #1: Redis address:") {
		t.Errorf("malformed address: exit %d, stderr %q", run.code, run.errOut)
	}
	run = guardAudit(t, password, "--redis", r.Addr(), "--redis", "redis://:"+password+"@"+r.Addr())
	if run.code != exitInput || !strings.Contains(run.errOut, "given twice") {
		t.Errorf("same server twice: exit %d, stderr %q", run.code, run.errOut)
	}
}

// TestAuditRedisSentinelCLI: through a Sentinel the current primary is
// audited, GR004 names its replica, and the json report lists it.
func TestAuditRedisSentinelCLI(t *testing.T) {
	s := dbtest.Sentinel(t)
	run := guardAudit(t, "no-password-here", "--format", "json", "--fail-on", "never",
		"--redis", "sentinel://"+s.SentinelAddrs()[0]+"/"+s.MasterName())
	if run.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", run.code, run.errOut)
	}
	var doc struct {
		Findings []struct {
			Code, Target, Message string
		}
		Redis []struct {
			Target, Role, Sentinel string
			Replicas               []struct {
				Addr       string
				LagSeconds int64 `json:"lag_seconds"`
			}
		}
	}
	if err := json.Unmarshal([]byte(run.out), &doc); err != nil {
		t.Fatal(err)
	}
	primary := "redis://" + s.Master().Addr()
	found := false
	for _, f := range doc.Findings {
		if f.Code == "GR004" && f.Target == primary && strings.Contains(f.Message, s.Replica().Addr()) {
			found = true
		}
	}
	if !found {
		t.Errorf("no GR004 on %s naming %s: %s", primary, s.Replica().Addr(), run.out)
	}
	if len(doc.Redis) != 1 || doc.Redis[0].Target != primary || doc.Redis[0].Role != "master" ||
		len(doc.Redis[0].Replicas) != 1 || doc.Redis[0].Replicas[0].Addr != s.Replica().Addr() || doc.Redis[0].Replicas[0].LagSeconds < 0 {
		t.Errorf("redis = %+v", doc.Redis)
	}
}

// TestAuditDatabaseAndRedisGolden is one report of a database and a Redis
// server: their findings side by side, sorted by target, in text and json.
// Addresses, database names and versions are replaced before comparing.
func TestAuditDatabaseAndRedisGolden(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, `CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL, version INT NOT NULL DEFAULT 0) ENGINE=InnoDB`)
	const password = "g0lden-Secret"
	r := dbtest.RedisWithPassword(t, password, "--save", "", "--appendonly", "no", "--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru")
	c := r.Client()
	ctx := context.Background()
	for _, k := range []string{"lock:inventory:1", "lock:inventory:2"} {
		if err := c.Set(ctx, k, "token", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Set(ctx, "lock:inventory:3", "token", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	stable := strings.NewReplacer(
		r.Addr(), "REDIS_ADDR",
		db.Addr+"/"+db.Name, "DB_TARGET",
		`"version": "`+guardVersion()+`"`, `"version": "VERSION"`,
	)
	got := map[string]string{}
	for _, format := range []string{"text", "json"} {
		run := guardAudit(t, password, "--format", format, "--no-color", "--no-data",
			"--dsn", db.DSN, "--redis", "redis://:"+password+"@"+r.Addr()+"/0")
		if run.code != exitFindings {
			t.Fatalf("%s: exit %d; stderr:\n%s", format, run.code, dbtest.Redact(run.errOut))
		}
		got[format] = stable.Replace(run.out)
	}
	// golden names its files from the repository's root; the runs above
	// read no policies.toml, so they ran before.
	t.Chdir("../..")
	golden(t, "audit_redis.txt", got["text"])
	golden(t, "audit_redis.json", got["json"])
}

// TestAuditRedisClusterCLI: a Cluster node given as --redis audits every
// primary, each named on stderr, and a clean Cluster exits 0.
func TestAuditRedisClusterCLI(t *testing.T) {
	c := dbtest.RedisCluster(t, 2, "--appendonly", "yes", "--appendfsync", "always")
	p := c.Primaries()
	run := guardAudit(t, "no-password-here", "--redis", p[1].Addr())
	if run.code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", run.code, run.out, run.errOut)
	}
	for _, s := range p {
		if want := "guard: redis://" + s.Addr() + ": Cluster primary, no replica, 0 keys matching lock:* in db 0 examined\n"; !strings.Contains(run.errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, run.errOut)
		}
	}
}
