// Package redislock teaches the Java reader the distributed locks of the
// Redis clients — Spring Data Redis's setIfAbsent, Jedis's setnx and
// SET … NX, Redisson's locks — so that a race finding on a statement made
// while one is held names it (stmt.Context): the lock is what its author
// believed made the write safe. It reads calls through java.ReadCall.
package redislock

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

func init() {
	java.Register(java.Framework{Name: "Redis locks", Locks: lock, LockCalls: []string{
		"setIfAbsent", "setnx", "setNX", "set", "lock", "tryLock", "lockInterruptibly", "unlock", "forceUnlock", "delete"}})
}

// redissonGetters are the RedissonClient methods that return a lock.
var redissonGetters = map[string]bool{"getLock": true, "getFairLock": true, "getMultiLock": true, "getRedLock": true, "getSpinLock": true}

// redissonTypes are Redisson's lock types.
var redissonTypes = map[string]bool{"RLock": true, "RedissonLock": true, "RedissonMultiLock": true, "RedissonRedLock": true, "RedissonFairLock": true}

// releases are the calls that give a lock back.
var releases = map[string]bool{"unlock": true, "forceUnlock": true, "delete": true}

// lock names the lock call c takes, or reports that it releases one.
func lock(c java.ReadCall) (string, bool) {
	calls := append([]java.Chained{{Method: c.Method, Args: c.Args}}, c.Then...)
	last := calls[len(calls)-1]
	switch m := last.Method; m {
	case "setIfAbsent":
		return "Redis SET NX (setIfAbsent)", false
	case "setnx", "setNX":
		return "Redis SETNX", false
	case "set":
		if strings.Contains(last.Args, ".nx()") {
			return "Redis SET NX", false
		}
	case "lock", "tryLock", "lockInterruptibly":
		if len(calls) == 2 && redissonGetters[calls[0].Method] {
			return "Redisson lock (" + calls[0].Method + "… " + m + ")", false
		}
		if len(calls) == 1 && redissonTypes[c.ReceiverType] {
			return "Redisson lock (" + m + ")", false
		}
	}
	return "", releases[last.Method]
}
