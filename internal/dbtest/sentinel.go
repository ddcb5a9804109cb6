package dbtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// sentinelMaster is the name the sentinel monitors the master under.
const sentinelMaster = "mymaster"

// sentinelReadyTimeout bounds the setup of a SentinelSet.
const sentinelReadyTimeout = 20 * time.Second

// SentinelSet is a throwaway Redis master, one replica and one sentinel
// monitoring them (quorum 1, down after 1 s, failover timeout 3 s): kill the
// master and WaitFailover sees the replica promoted. It always uses local
// processes, whatever GUARD_TEST_REDIS_ADDR says.
type SentinelSet struct {
	t        testing.TB
	master   *RedisServer
	replica  *RedisServer
	sentinel *RedisServer
	client   *redis.SentinelClient
}

// Sentinel starts a master, a replica replicating it and a sentinel that
// knows both, all stopped when t ends.
func Sentinel(t testing.TB) *SentinelSet {
	t.Helper()
	return startSentinelSet(t, "")
}

// SentinelWithPassword is Sentinel for a master and a replica that ask for
// password (requirepass, masterauth), watched by a sentinel that asks for
// none, as Sentinel is often deployed.
func SentinelWithPassword(t testing.TB, password string) *SentinelSet {
	t.Helper()
	addSecret(password)
	return startSentinelSet(t, password)
}

func startSentinelSet(t testing.TB, password string) *SentinelSet {
	t.Helper()
	auth := func(args []string) []string {
		if password == "" {
			return args
		}
		return append(args, "--requirepass", password, "--masterauth", password)
	}
	master := startRedisAs(t, password, func(dir string, port int) ([]string, error) {
		args, err := plainRedisArgs(dir, port)
		return auth(args), err
	})
	replica := startRedisAs(t, password, func(dir string, port int) ([]string, error) {
		args, err := plainRedisArgs(dir, port)
		return append(auth(args), "--replicaof", "127.0.0.1", strconv.Itoa(master.port)), err
	})
	ctx, cancel := context.WithTimeout(context.Background(), sentinelReadyTimeout)
	defer cancel()
	// The sentinel learns of replicas from the master's INFO, which it reads
	// on connect and then every 10 s: start it once the replica is attached.
	if err := poll(ctx, func() (bool, error) {
		info, err := redisCommandAs(replica.addr, password, "INFO", "replication")
		return infoField(info, "master_link_status") == "up", err
	}); err != nil {
		fatalf(t, "replica %s did not attach to master %s: %v", replica.addr, master.addr, err)
	}

	sentinel := startRedis(t, sentinelArgs(master.port, password))
	s := &SentinelSet{t: t, master: master, replica: replica, sentinel: sentinel}
	s.client = redis.NewSentinelClient(&redis.Options{Addr: sentinel.addr})
	t.Cleanup(func() { s.client.Close() })
	if err := poll(ctx, func() (bool, error) {
		replicas, err := s.client.Replicas(ctx, sentinelMaster).Result()
		for _, r := range replicas {
			if net.JoinHostPort(r["ip"], r["port"]) == replica.addr && r["flags"] == "slave" {
				return true, nil
			}
		}
		return false, err
	}); err != nil {
		fatalf(t, "sentinel %s did not see replica %s: %v", sentinel.addr, replica.addr, err)
	}
	return s
}

// sentinelArgs returns the command line of a sentinel monitoring the master
// on masterPort, authenticating with password when it is not empty. The sentinel rewrites its configuration file, so every start
// writes a fresh one.
func sentinelArgs(masterPort int, password string) redisArgsFunc {
	return func(dir string, port int) ([]string, error) {
		conf := fmt.Sprintf(`port %d
bind 127.0.0.1
dir %q
sentinel monitor %s 127.0.0.1 %d 1
sentinel down-after-milliseconds %s 1000
sentinel failover-timeout %s 3000
`, port, dir, sentinelMaster, masterPort, sentinelMaster, sentinelMaster)
		if password != "" {
			conf += fmt.Sprintf("sentinel auth-pass %s %s\n", sentinelMaster, password)
		}
		path := filepath.Join(dir, "sentinel.conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			return nil, fmt.Errorf("write sentinel configuration: %w", err)
		}
		// redis-server runs as a sentinel when told to; Debian's
		// redis-sentinel binary is the same program under another name.
		return []string{path, "--sentinel"}, nil
	}
}

// MasterName returns the name the sentinel monitors the master under.
func (s *SentinelSet) MasterName() string { return sentinelMaster }

// SentinelAddrs returns the sentinels' host:port addresses.
func (s *SentinelSet) SentinelAddrs() []string { return []string{s.sentinel.addr} }

// Master returns the server started as the master; after a failover it may
// be down or a replica.
func (s *SentinelSet) Master() *RedisServer { return s.master }

// Replica returns the server started as the replica, the one a failover
// promotes.
func (s *SentinelSet) Replica() *RedisServer { return s.replica }

// FailoverClient returns a go-redis client that follows the master through
// the sentinel, closed when the test ends.
func (s *SentinelSet) FailoverClient() *redis.Client {
	client := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:    sentinelMaster,
		SentinelAddrs: s.SentinelAddrs(),
		Password:      s.master.password,
	})
	s.t.Cleanup(func() { client.Close() })
	return client
}

// WaitFailover waits until the sentinel names another master than the one
// started as master and that server has taken the role, and returns its
// address. It returns ctx's error if that does not happen in time.
func (s *SentinelSet) WaitFailover(ctx context.Context) (string, error) {
	var addr string
	err := poll(ctx, func() (bool, error) {
		hostPort, err := s.client.GetMasterAddrByName(ctx, sentinelMaster).Result()
		if err != nil || len(hostPort) != 2 {
			return false, err
		}
		addr = net.JoinHostPort(hostPort[0], hostPort[1])
		if addr == s.master.addr {
			return false, nil
		}
		info, err := redisCommandAs(addr, s.master.password, "INFO", "replication")
		return infoField(info, "role") == "master", err
	})
	if err != nil {
		return "", fmt.Errorf("wait for failover of %s: %w", sentinelMaster, err)
	}
	return addr, nil
}

// poll calls ready every 50 ms until it reports true or ctx ends; the error
// returned then carries the last error of ready.
func poll(ctx context.Context, ready func() (bool, error)) error {
	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	for {
		ok, err := ready()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
			}
			return ctx.Err()
		case <-ticker.C:
		}
	}
}
