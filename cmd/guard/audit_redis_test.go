package main

import (
	"context"
	"encoding/json"
	"regexp"
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

// TestAuditDatabaseAndRedisGolden is one report of a database, the
// statements it ran and a Redis server (--dsn … --queries --redis …):
// their findings side by side, sorted by target, in text, json and sarif.
// Addresses, database names, versions and times are replaced before
// comparing.
func TestAuditDatabaseAndRedisGolden(t *testing.T) {
	db := dbtest.PerformanceSchemaMySQL(t)
	db.Exec(t, `CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL, version INT NOT NULL DEFAULT 0) ENGINE=InnoDB`,
		`INSERT INTO t_inventory (id, inventory) VALUES (1, 10)`)
	for range 3 {
		db.Exec(t, "UPDATE t_inventory SET inventory = inventory - 1, version = version + 1 WHERE id = 1")
	}
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
	seen := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	fingerprint := regexp.MustCompile(`"guard/v1": "[0-9a-f]+:\d+"`)
	got := map[string]string{}
	for _, format := range []string{"text", "json", "sarif"} {
		run := guardAudit(t, password, "--format", format, "--no-color", "--no-data", "--queries",
			"--dsn", db.DSN, "--redis", "redis://:"+password+"@"+r.Addr()+"/0")
		if run.code != exitFindings {
			t.Fatalf("%s: exit %d; stderr:\n%s", format, run.code, dbtest.Redact(run.errOut))
		}
		out := seen.ReplaceAllString(stable.Replace(run.out), "TIME")
		// SARIF's fingerprints hash the target, whose address each run picks.
		got[format] = fingerprint.ReplaceAllString(out, `"guard/v1": "FINGERPRINT"`)
		if !strings.Contains(got[format], "GQ002") || !strings.Contains(got[format], "GR001") {
			t.Errorf("%s: the report lacks the digest's GQ002 or Redis's GR001:\n%s", format, got[format])
		}
	}
	// golden names its files from the repository's root; the runs above
	// read no policies.toml, so they ran before.
	t.Chdir("../..")
	golden(t, "audit_redis.txt", got["text"])
	golden(t, "audit_redis.json", got["json"])
	golden(t, "audit_redis.sarif", got["sarif"])
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
