package redislock

import (
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// TestLock tells the calls that take a Redis lock, the ones that release
// one, and the look-alikes that do neither.
func TestLock(t *testing.T) {
	for _, tc := range []struct {
		name    string
		call    java.ReadCall
		want    string
		release bool
	}{
		{"setIfAbsent", java.ReadCall{Receiver: "redis", Method: "opsForValue", Then: []java.Chained{{Method: "setIfAbsent", Args: "k, \"1\""}}}, "Redis SET NX (setIfAbsent)", false},
		{"Jedis SET NX", java.ReadCall{Receiver: "jedis", Method: "set", Args: "k, v, SetParams.setParams().nx().px(ttl)"}, "Redis SET NX", false},
		{"Jedis plain SET", java.ReadCall{Receiver: "jedis", Method: "set", Args: "k, v"}, "", false},
		{"Jedis SET with nx()", java.ReadCall{Receiver: "jedis", Method: "opsFor", Then: []java.Chained{{Method: "set", Args: "k, v, SetParams.setParams().nx().ex(10)"}}}, "Redis SET NX", false},
		{"Redisson chain", java.ReadCall{Receiver: "redisson", Method: "getLock", Then: []java.Chained{{Method: "tryLock", Args: "1, 10, TimeUnit.SECONDS"}}}, "Redisson lock (getLock… tryLock)", false},
		{"RLock local", java.ReadCall{Receiver: "lock", ReceiverType: "RLock", Method: "lock"}, "Redisson lock (lock)", false},
		{"a JVM lock", java.ReadCall{Receiver: "lock", ReceiverType: "ReentrantLock", Method: "lock"}, "", false},
		{"unlock", java.ReadCall{Receiver: "lock", ReceiverType: "RLock", Method: "unlock"}, "", true},
		{"delete of the key", java.ReadCall{Receiver: "redis", Method: "delete"}, "", true},
	} {
		got, release := lock(tc.call)
		if got != tc.want || release != tc.release {
			t.Errorf("%s: lock = %q, %v; want %q, %v", tc.name, got, release, tc.want, tc.release)
		}
	}
}
