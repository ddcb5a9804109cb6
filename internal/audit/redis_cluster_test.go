package audit

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint/rules"
)

// TestAuditRedisCluster: a node of a Cluster is a seed: every primary is
// audited under its own name, each for its own share of the lock keys, and
// the one with a replica is GR004.
func TestAuditRedisCluster(t *testing.T) {
	persisted := []string{"--appendonly", "yes", "--appendfsync", "always"}
	c := dbtest.RedisCluster(t, 3, persisted...)
	p := c.Primaries()
	replica := c.AddReplica(p[0])
	client := c.Client()
	ctx := context.Background()
	stuck := []string{"lock:order:1", "lock:order:2", "lock:order:3", "lock:order:4", "lock:order:5", "lock:order:6"}
	for _, k := range stuck {
		if err := client.Set(ctx, k, "token", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := client.Set(ctx, "lock:sku:1", "token", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}

	seed, err := target.ParseRedis(p[1].Addr())
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(ctx, nil, Options{Rules: rules.All(), Redis: []*target.Redis{seed}})
	if len(rep.Failures) != 0 {
		t.Fatalf("failures: %v", rep.Failures)
	}
	var audited []string
	summaries := map[string]string{}
	for _, s := range rep.Redis {
		audited = append(audited, s.Target)
		summaries[s.Target] = s.Summary
	}
	// The seed first, then the other primaries in address order.
	want := []string{"redis://" + p[0].Addr(), "redis://" + p[2].Addr()}
	sort.Strings(want)
	want = append([]string{"redis://" + p[1].Addr()}, want...)
	if d := cmp.Diff(want, audited); d != "" {
		t.Fatalf("audited (-want +got):\n%s", d)
	}
	withoutTTL, examined := 0, 0
	for _, s := range rep.Redis {
		withoutTTL += s.LockKeys.WithoutTTL
		examined += s.LockKeys.Examined
	}
	if withoutTTL != len(stuck) || examined != len(stuck)+1 {
		t.Errorf("lock keys over the primaries: %d without TTL of %d, want %d of %d", withoutTTL, examined, len(stuck), len(stuck)+1)
	}
	gr004 := 0
	for _, f := range rep.Result.Findings {
		switch f.Code {
		case "GR004":
			gr004++
			if f.Target != "redis://"+p[0].Addr() || !strings.Contains(f.Message, replica.Addr()+" online") {
				t.Errorf("GR004 on %s: %s", f.Target, f.Message)
			}
		case "GR005":
		default:
			t.Errorf("unexpected %s on %s: %s", f.Code, f.Target, f.Message)
		}
	}
	if gr004 != 1 {
		t.Errorf("%d GR004, want 1", gr004)
	}
	if s := summaries["redis://"+p[0].Addr()]; !strings.HasPrefix(s, "Cluster primary, 1 replica: "+replica.Addr()) {
		t.Errorf("summary of the primary with a replica: %q", s)
	}
}

func TestParseClusterNodes(t *testing.T) {
	text := "07c3 127.0.0.1:30004@40004 slave e7d1 0 1426238317239 4 connected\n" +
		"67ed 127.0.0.1:30002@40002,node-2 master - 0 1426238316232 2 connected 5461-10922\n" +
		"292f 127.0.0.1:30003@40003 master,fail - 0 1426238318243 3 connected 10923-16383\n" +
		"6ec2 :0@0 master,noaddr - 0 0 0 disconnected\n" +
		"e7d1 127.0.0.1:30001@40001 myself,master - 0 0 1 connected 0-5460\n"
	want := []clusterNode{
		{id: "e7d1", addr: "127.0.0.1:30001", myself: true},
		{id: "67ed", addr: "127.0.0.1:30002"},
		{id: "292f", addr: "127.0.0.1:30003", failed: true},
		{id: "6ec2", addr: ":0", failed: true},
	}
	if d := cmp.Diff(want, parseClusterNodes(text), cmp.AllowUnexported(clusterNode{})); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
