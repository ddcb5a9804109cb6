package audit

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/target"
)

// clusterNode is a primary of a Redis Cluster, as CLUSTER NODES lists it.
type clusterNode struct {
	id     string
	addr   string // host:port of its clients' port; ":0" when unknown
	myself bool   // the node that was asked
	failed bool   // flagged fail or noaddr: it cannot be audited
}

// clusterPrimaries asks a node of a Cluster for every primary of it.
func clusterPrimaries(ctx context.Context, c *redis.Client, queries *int) ([]clusterNode, error) {
	*queries++
	text, err := c.ClusterNodes(ctx).Result()
	if err != nil {
		return nil, fmt.Errorf("CLUSTER NODES: %w", err)
	}
	return parseClusterNodes(text), nil
}

// parseClusterNodes reads the primaries of a CLUSTER NODES reply: one line
// per node, "<id> <ip:port@cport[,hostname]> <flags> <master> …".
func parseClusterNodes(text string) []clusterNode {
	var out []clusterNode
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		flags := strings.Split(f[2], ",")
		has := func(flag string) bool {
			for _, x := range flags {
				if x == flag {
					return true
				}
			}
			return false
		}
		if !has("master") || has("handshake") {
			continue
		}
		addr, _, _ := strings.Cut(f[1], "@")
		addr, _, _ = strings.Cut(addr, ",")
		out = append(out, clusterNode{
			id: f[0], addr: addr, myself: has("myself"),
			failed: has("fail") || has("noaddr") || strings.HasPrefix(addr, ":"),
		})
	}
	// CLUSTER NODES lists the nodes in no set order: the report does.
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// AuditRedisAll audits one Redis address, and when its server is a node
// of a Cluster, every primary of that Cluster: each holds its own share of
// the lock keys and its own settings. A primary the Cluster flags as failed
// is a failed target, never left out in silence.
func AuditRedisAll(ctx context.Context, r *target.Redis, opts Options) []*TargetResult {
	first := AuditRedis(ctx, r, opts)
	out := []*TargetResult{first}
	for _, n := range first.cluster {
		switch {
		case n.myself:
		case n.failed:
			name := r.PrimaryURL(n.addr)
			if strings.HasPrefix(n.addr, ":") {
				name = "Redis Cluster node " + n.id
			}
			out = append(out, &TargetResult{Target: name,
				Err: fmt.Errorf("the Cluster of %s flags this primary as failed: it was not audited", first.Target)})
		default:
			out = append(out, auditRedisNode(ctx, r, n.addr, opts))
		}
	}
	return out
}
