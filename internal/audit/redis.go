package audit

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
)

// Bounds of the scan of lock keys.
const (
	// DefaultLockScanCap is how many keys matching the lock pattern an
	// audit reads the TTL of before it stops and says so.
	DefaultLockScanCap = 10000
	// lockScanCount is the COUNT of each SCAN call; lockScanCalls bounds
	// the calls, so a large keyspace with few lock keys is walked for about
	// a million keys at most.
	lockScanCount = 1000
	lockScanCalls = 1000
)

// redisConfig lists the parameters the Redis rules read, each asked on its
// own: CONFIG GET of several parameters needs Redis 7.
var redisConfig = []string{
	"maxmemory", "maxmemory-policy", "appendonly", "appendfsync", "save",
	"min-replicas-to-write", "min-replicas-max-lag",
}

// AuditRedis audits one Redis address: the server itself, or the primary a
// Sentinel names. It reads CONFIG GET, INFO and a bounded SCAN of the lock
// keys and runs the rules of KindRedis on them. A server that cannot be
// reached, or whose Sentinels name no primary, is the result's Err; a
// command the server refuses is a check the findings say could not run.
// The other primaries of a Cluster are AuditRedisAll's.
func AuditRedis(ctx context.Context, r *target.Redis, opts Options) *TargetResult {
	return auditRedisNode(ctx, r, "", opts)
}

// auditRedisNode audits the server at addr with r's credentials, or the one
// r names when addr is "".
func auditRedisNode(ctx context.Context, r *target.Redis, addr string, opts Options) *TargetResult {
	opts = opts.withDefaults()
	began := time.Now()
	res := &TargetResult{Target: r.URL()}
	if addr != "" {
		res.Target = r.PrimaryURL(addr)
	}
	err := auditRedis(ctx, r, addr, opts, res)
	res.Elapsed = time.Since(began)
	if err != nil {
		res.Err = errors.New(target.NewRedactor(r).Redact(err.Error()))
		res.Findings, res.Redis = nil, nil
	}
	return res
}

func auditRedis(ctx context.Context, r *target.Redis, addr string, opts Options, res *TargetResult) error {
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	copts := target.RedisOptions{PoolSize: 1, DialTimeout: target.DialTimeout, ReadTimeout: target.IOTimeout}
	facts := &lint.Redis{}
	var fromSentinel []lint.RedisReplica
	if sentinels, master := r.Sentinels(); addr == "" && master != "" {
		a, via, reps, err := askSentinels(ctx, r, sentinels, master, copts, &res.Queries)
		if err != nil {
			return err
		}
		addr, facts.Sentinel, fromSentinel = a, via, reps
		res.Target = r.PrimaryURL(addr)
	} else if addr == "" {
		addr = r.Addr()
	}
	facts.Target = res.Target
	c := r.ServerClient(addr, copts)
	defer c.Close()
	res.Queries++
	if err := c.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if err := readRedisConfig(ctx, c, facts, &res.Queries); err != nil {
		return err
	}
	if err := readRedisInfo(ctx, c, facts, &res.Queries); err != nil {
		return err
	}
	facts.Replicas = mergeReplicas(facts.Replicas, fromSentinel)
	if facts.Sentinel != "" && facts.Role() != "" && facts.Role() != "master" {
		res.Notes = append(res.Notes, fmt.Sprintf("Sentinel %s names this server the primary, but it reports role %s "+
			"(a failover under way?): audit again once it settles", facts.Sentinel, facts.Role()))
	}
	if facts.Info["cluster_enabled"] == "1" {
		var err error
		if res.cluster, err = clusterPrimaries(ctx, c, &res.Queries); err != nil {
			return err
		}
	}
	pattern := opts.Policy.Lock.KeyPattern
	if err := scanLocks(ctx, c, facts, pattern, r.DB(), opts.LockScanCap, opts.ScanTimeout, &res.Queries); err != nil {
		return err
	}
	res.Redis = facts

	var found []lint.Finding
	report := func(f lint.Finding) {
		if !lint.Active(f) {
			return
		}
		f.Target, f.File = res.Target, ""
		found = append(found, f)
	}
	for _, rule := range opts.Rules {
		if rule.Kind != lint.KindRedis {
			continue
		}
		pass := lint.NewPass(rule, opts.Policy, nil, nil, nil, nil, report)
		pass.Redis = facts
		if err := rule.Run(pass); err != nil {
			return fmt.Errorf("rule %s: %w", rule.Code, err)
		}
	}
	res.Findings = lint.Dedupe(found)
	lint.Order(res.Findings)
	return nil
}

// refused reports whether err is the server's refusal of one command (an
// unknown or renamed command, an ACL denial) rather than a lost connection:
// a refusal is a check that could not run, a lost connection a failed
// target.
func refused(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, redis.Nil)
}

// askSentinels asks each sentinel in turn for the master's address and its
// replicas, and returns the primary, the sentinel that answered
// (host:port/master) and the replicas it knows.
func askSentinels(ctx context.Context, r *target.Redis, sentinels []string, master string, o target.RedisOptions, queries *int) (string, string, []lint.RedisReplica, error) {
	var last error
	for _, s := range sentinels {
		sc := r.SentinelClient(s, o, true)
		*queries++
		hp, err := sc.GetMasterAddrByName(ctx, master).Result()
		if refused(err) && r.HasPassword() {
			// A sentinel without a password refuses AUTH: ask it without.
			sc.Close()
			sc = r.SentinelClient(s, o, false)
			*queries++
			hp, err = sc.GetMasterAddrByName(ctx, master).Result()
		}
		if err != nil || len(hp) != 2 {
			sc.Close()
			if err == nil || errors.Is(err, redis.Nil) {
				err = fmt.Errorf("it monitors no master named %s", master)
			}
			last = fmt.Errorf("sentinel %s: %w", s, err)
			continue
		}
		*queries++
		list, err := sc.Replicas(ctx, master).Result()
		sc.Close()
		if err != nil && !refused(err) {
			last = fmt.Errorf("sentinel %s: %w", s, err)
			continue
		}
		var reps []lint.RedisReplica
		for _, m := range list {
			state := m["flags"]
			if st := m["master-link-status"]; st != "" && st != "ok" {
				state += ", link " + st
			}
			reps = append(reps, lint.RedisReplica{
				Addr: net.JoinHostPort(m["ip"], m["port"]), State: "(Sentinel: " + state + ")",
				LagSeconds: -1, BytesBehind: -1,
			})
		}
		return net.JoinHostPort(hp[0], hp[1]), s + "/" + master, reps, nil
	}
	return "", "", nil, fmt.Errorf("no sentinel named the primary of %s: %w", master, last)
}

// readRedisConfig reads the parameters of redisConfig. The first refusal
// stops it: CONFIG is renamed or denied as a whole.
func readRedisConfig(ctx context.Context, c *redis.Client, facts *lint.Redis, queries *int) error {
	facts.Config = map[string]string{}
	for _, name := range redisConfig {
		*queries++
		m, err := c.ConfigGet(ctx, name).Result()
		if refused(err) {
			facts.ConfigErr = err.Error()
			return nil
		}
		if err != nil {
			return fmt.Errorf("CONFIG GET %s: %w", name, err)
		}
		if v, ok := m[name]; ok {
			facts.Config[name] = v
		}
	}
	return nil
}

// readRedisInfo reads INFO's default sections (server, memory, persistence,
// replication, cluster …) and the replicas its replication section lists.
func readRedisInfo(ctx context.Context, c *redis.Client, facts *lint.Redis, queries *int) error {
	facts.Info = map[string]string{}
	*queries++
	text, err := c.Info(ctx).Result()
	if refused(err) {
		facts.InfoErr = err.Error()
		return nil
	}
	if err != nil {
		return fmt.Errorf("INFO: %w", err)
	}
	for line := range strings.SplitSeq(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && !strings.HasPrefix(k, "#") {
			facts.Info[k] = v
		}
	}
	offset, errOffset := strconv.ParseInt(facts.Info["master_repl_offset"], 10, 64)
	for i := 0; ; i++ {
		line, ok := facts.Info["slave"+strconv.Itoa(i)]
		if !ok {
			break
		}
		f := map[string]string{}
		for kv := range strings.SplitSeq(line, ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				f[k] = v
			}
		}
		rep := lint.RedisReplica{Addr: net.JoinHostPort(f["ip"], f["port"]), State: f["state"], LagSeconds: -1, BytesBehind: -1}
		if n, err := strconv.ParseInt(f["lag"], 10, 64); err == nil {
			rep.LagSeconds = n
		}
		if n, err := strconv.ParseInt(f["offset"], 10, 64); err == nil && errOffset == nil {
			rep.BytesBehind = max(offset-n, 0)
		}
		facts.Replicas = append(facts.Replicas, rep)
	}
	return nil
}

// mergeReplicas adds the replicas a Sentinel knows and the primary does not
// list (disconnected, down) to those the primary lists.
func mergeReplicas(listed, known []lint.RedisReplica) []lint.RedisReplica {
	seen := map[string]bool{}
	for _, r := range listed {
		seen[r.Addr] = true
	}
	for _, r := range known {
		if !seen[r.Addr] {
			seen[r.Addr] = true
			listed = append(listed, r)
		}
	}
	return listed
}

// scanLocks walks the keys matching pattern with SCAN and reads their TTLs,
// stopping after capKeys keys, lockScanCalls calls or the scan timeout,
// whichever comes first: the audit of a large keyspace stays bounded and
// says where it stopped.
func scanLocks(ctx context.Context, c *redis.Client, facts *lint.Redis, pattern string, db, capKeys int, timeout time.Duration, queries *int) error {
	scanCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	s := &lint.LockScan{Pattern: pattern, DB: db}
	var cursor uint64
	for calls := 1; ; calls++ {
		*queries++
		keys, next, err := c.Scan(scanCtx, cursor, pattern, lockScanCount).Result()
		if refused(err) {
			facts.LocksErr = "SCAN failed: " + err.Error()
			return nil
		}
		if err != nil {
			if scanCtx.Err() != nil && ctx.Err() == nil {
				s.Capped = true
				break
			}
			return fmt.Errorf("SCAN %s: %w", pattern, err)
		}
		if len(keys) > capKeys-s.Examined {
			keys, s.Capped = keys[:capKeys-s.Examined], true
		}
		if len(keys) > 0 {
			*queries++
			pipe := c.Pipeline()
			ttls := make([]*redis.DurationCmd, len(keys))
			for i, k := range keys {
				ttls[i] = pipe.PTTL(scanCtx, k)
			}
			if _, err := pipe.Exec(scanCtx); err != nil {
				if refused(err) {
					facts.LocksErr = "PTTL failed: " + err.Error()
					return nil
				}
				return fmt.Errorf("PTTL of the keys matching %s: %w", pattern, err)
			}
			for i, cmd := range ttls {
				switch cmd.Val() {
				case -2: // deleted since SCAN returned it
					continue
				case -1:
					s.WithoutTTL++
					s.Samples = keepSamples(s.Samples, keys[i])
				}
				s.Examined++
			}
		}
		if s.Capped || next == 0 {
			break
		}
		if calls >= lockScanCalls {
			s.Capped = true
			break
		}
		cursor = next
	}
	facts.Locks = s
	return nil
}

// maxSamples is how many keys without a TTL GR005 names.
const maxSamples = 5

// keepSamples adds key to the samples, keeping the first maxSamples in
// byte order: SCAN's order changes with the server's hash seed, and the
// same keys must give the same report.
func keepSamples(samples []string, key string) []string {
	i, _ := slices.BinarySearch(samples, key)
	if i >= maxSamples {
		return samples
	}
	samples = slices.Insert(samples, i, key)
	return samples[:min(len(samples), maxSamples)]
}

// DescribeRedis says in one line what the audit of a Redis server saw: its
// role, its replicas with their lag, and the lock keys scanned.
func DescribeRedis(facts *lint.Redis) string {
	var parts []string
	role := facts.Role()
	switch role {
	case "master":
		role = "primary"
	case "slave":
		role = "replica of " + net.JoinHostPort(facts.Info["master_host"], facts.Info["master_port"])
	case "":
		role = "role unknown"
	}
	if facts.Info["cluster_enabled"] == "1" {
		role = "Cluster " + role
	}
	if facts.Sentinel != "" {
		role += " (Sentinel " + facts.Sentinel + ")"
	}
	parts = append(parts, role)
	if len(facts.Replicas) > 0 {
		reps := make([]string, len(facts.Replicas))
		for i, r := range facts.Replicas {
			reps[i] = r.String()
		}
		n := "1 replica"
		if len(reps) > 1 {
			n = strconv.Itoa(len(reps)) + " replicas"
		}
		parts = append(parts, n+": "+strings.Join(reps, "; "))
	} else if facts.Role() == "master" {
		parts = append(parts, "no replica")
	}
	if s := facts.Locks; s != nil {
		noun := "keys"
		if s.Examined == 1 {
			noun = "key"
		}
		scan := fmt.Sprintf("%d %s matching %s in db %d examined", s.Examined, noun, s.Pattern, s.DB)
		if s.Capped {
			scan += " (the scan stopped at its bound)"
		}
		parts = append(parts, scan)
	}
	return strings.Join(parts, ", ")
}
