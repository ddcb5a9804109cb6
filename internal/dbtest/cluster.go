package dbtest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// clusterSlots is the number of hash slots of a Redis Cluster.
const clusterSlots = 16384

// clusterReadyTimeout bounds the setup of a RedisClusterSet.
const clusterReadyTimeout = 20 * time.Second

// RedisClusterSet is a throwaway Redis Cluster: primaries sharing the hash
// slots, and the replicas AddReplica attaches. It always uses local
// processes, whatever GUARD_TEST_REDIS_ADDR says.
type RedisClusterSet struct {
	t         testing.TB
	primaries []*RedisServer
	replicas  []*RedisServer
}

// RedisCluster starts n primaries in cluster mode with extra options, as
// RedisWith takes them, gives each an equal range of the hash slots and
// returns once every node sees the cluster as ok. All stop when t ends.
func RedisCluster(t testing.TB, n int, extra ...string) *RedisClusterSet {
	t.Helper()
	c := &RedisClusterSet{t: t}
	for i := 0; i < n; i++ {
		c.primaries = append(c.primaries, startClusterNode(t, extra))
	}
	for i, p := range c.primaries {
		first, last := i*clusterSlots/n, (i+1)*clusterSlots/n-1
		c.must(p, "CLUSTER", "ADDSLOTSRANGE", strconv.Itoa(first), strconv.Itoa(last))
	}
	for _, p := range c.primaries[1:] {
		c.must(c.primaries[0], "CLUSTER", "MEET", "127.0.0.1", strconv.Itoa(p.port))
	}
	c.waitReady()
	return c
}

// startClusterNode starts one throwaway server in cluster mode.
func startClusterNode(t testing.TB, extra []string) *RedisServer {
	t.Helper()
	return startRedis(t, func(dir string, port int) ([]string, error) {
		args, err := plainRedisArgs(dir, port)
		args = append(args, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "2000")
		return append(args, extra...), err
	})
}

// AddReplica starts a node with extra options, joins it to the cluster as
// a replica of primary and returns once primary lists it online.
func (c *RedisClusterSet) AddReplica(primary *RedisServer, extra ...string) *RedisServer {
	c.t.Helper()
	r := startClusterNode(c.t, extra)
	c.must(c.primaries[0], "CLUSTER", "MEET", "127.0.0.1", strconv.Itoa(r.port))
	c.replicas = append(c.replicas, r)
	id := c.must(primary, "CLUSTER", "MYID")
	ctx, cancel := context.WithTimeout(context.Background(), clusterReadyTimeout)
	defer cancel()
	// The replica must know the primary before it can follow it.
	if err := poll(ctx, func() (bool, error) {
		_, err := redisCommand(r.addr, "CLUSTER", "REPLICATE", id)
		return err == nil, err
	}); err != nil {
		fatalf(c.t, "replica %s could not follow %s: %v", r.addr, primary.addr, err)
	}
	if err := poll(ctx, func() (bool, error) {
		info, err := redisCommand(primary.addr, "INFO", "replication")
		return strings.Contains(info, "port="+strconv.Itoa(r.port)+",state=online"), err
	}); err != nil {
		fatalf(c.t, "replica %s not online on %s: %v", r.addr, primary.addr, err)
	}
	c.waitReady()
	return r
}

// Primaries returns the primaries, in the order of their slot ranges.
func (c *RedisClusterSet) Primaries() []*RedisServer { return c.primaries }

// Client returns a cluster client of the set, closed when the test ends.
func (c *RedisClusterSet) Client() *redis.ClusterClient {
	addrs := make([]string, len(c.primaries))
	for i, p := range c.primaries {
		addrs[i] = p.addr
	}
	client := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	c.t.Cleanup(func() { client.Close() })
	return client
}

// waitReady waits until every node knows every other and says the cluster
// is ok.
func (c *RedisClusterSet) waitReady() {
	c.t.Helper()
	nodes := append(append([]*RedisServer{}, c.primaries...), c.replicas...)
	ctx, cancel := context.WithTimeout(context.Background(), clusterReadyTimeout)
	defer cancel()
	for _, n := range nodes {
		if err := poll(ctx, func() (bool, error) {
			info, err := redisCommand(n.addr, "CLUSTER", "INFO")
			return infoField(info, "cluster_state") == "ok" &&
				infoField(info, "cluster_known_nodes") == strconv.Itoa(len(nodes)), err
		}); err != nil {
			fatalf(c.t, "cluster node %s not ready: %v", n.addr, err)
		}
	}
}

// must sends one command to node and fails the test on an error reply.
func (c *RedisClusterSet) must(node *RedisServer, args ...string) string {
	c.t.Helper()
	reply, err := redisCommand(node.addr, args...)
	if err != nil {
		fatalf(c.t, "%s on %s: %v", strings.Join(args, " "), node.addr, err)
	}
	return reply
}
