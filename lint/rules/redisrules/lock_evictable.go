package redisrules

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// LockEvictable reports a Redis that evicts keys when memory runs out.
var LockEvictable = &lint.Rule{
	Code:    "GR001",
	Name:    "lock-evictable",
	Summary: "maxmemory is set and maxmemory-policy is not noeviction: allkeys-* evicts any key, volatile-* every key with a TTL (every lock)",
	Doc: "When Redis reaches maxmemory it makes room by its maxmemory-policy: allkeys-lru/lfu/random " +
		"evict any key, volatile-lru/lfu/random/ttl evict keys that carry a TTL, which every lock " +
		"does. An evicted lock is free for the next SET NX while its holder is still writing: " +
		"eviction is silent, the holder learns of it only when its release or renewal finds " +
		"another token." + redisLockDoc,
	Fix: "CONFIG SET maxmemory-policy noeviction (and the same in redis.conf or the service's parameter group): " +
		"a full Redis then refuses the SET NX, a lock not acquired, instead of dropping locks that are held; " +
		"or keep locks on a Redis of their own without maxmemory",
	Kind:     lint.KindRedis,
	Severity: policy.SevError,
	Live:     true,
	Run:      runLockEvictable,
}

func runLockEvictable(p *lint.Pass) error {
	r := p.Redis
	if r == nil {
		return nil
	}
	limit, okLimit := r.Setting("maxmemory")
	evict, okPolicy := r.Setting("maxmemory-policy")
	if !okLimit || !okPolicy {
		// INFO memory shows both where CONFIG is denied.
		limit, okLimit = r.Info["maxmemory"]
		evict, okPolicy = r.Info["maxmemory_policy"]
	}
	n, err := strconv.ParseInt(limit, 10, 64)
	if !okLimit || !okPolicy || err != nil {
		why := configWhy(r, "maxmemory and maxmemory-policy")
		if r.InfoErr != "" {
			why += "; INFO memory failed: " + r.InfoErr
		}
		couldNotRun(p, "maxmemory and maxmemory-policy", why, configFix("maxmemory", "maxmemory-policy"))
		return nil
	}
	evict = strings.ToLower(evict)
	if n == 0 || evict == "noeviction" {
		return nil
	}
	which := "evicts any key (locks included)"
	if strings.HasPrefix(evict, "volatile-") {
		which = "evicts keys that have a TTL (every lock)"
	}
	redisFinding(p, "maxmemory-policy", "maxmemory "+humanBytes(n)+" with maxmemory-policy "+evict+
		": when memory runs out Redis "+which+", and the next SET NX acquires a lock its holder still uses")
	return nil
}
