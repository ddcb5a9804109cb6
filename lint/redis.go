package lint

import "strconv"

// Redis is what a live audit read of one Redis server, for the rules of
// KindRedis: its configuration, its replication and persistence state and a
// bounded scan of the lock keys. A fact that could not be read says why, so
// that a rule reports the check it could not run instead of a clean result.
type Redis struct {
	// Target is redis://host:port (with /db when not 0): never credentials.
	Target string
	// Config holds the values CONFIG GET returned, by parameter name
	// (maxmemory, maxmemory-policy, appendonly, appendfsync, save,
	// min-replicas-to-write, min-replicas-max-lag). A parameter missing
	// from it was not returned.
	Config map[string]string
	// ConfigErr is why CONFIG GET could not run (renamed away, denied by an
	// ACL, as managed services do); "" when it ran.
	ConfigErr string
	// Info holds the fields of INFO replication, persistence and memory
	// (role, connected_slaves, aof_enabled, maxmemory_policy, …).
	Info map[string]string
	// InfoErr is why INFO could not run; "" when it ran.
	InfoErr string
	// Replicas are the replicas of a primary: those its INFO lists, and
	// those a Sentinel knows that are not connected.
	Replicas []RedisReplica
	// Sentinel names the Sentinel that gave this primary, host:port/master;
	// "" when the server was addressed directly.
	Sentinel string
	// Locks is the scan of the lock keys; nil when it could not run
	// (LocksErr says why).
	Locks    *LockScan
	LocksErr string
}

// Setting returns a configuration parameter and whether CONFIG GET gave it.
func (r *Redis) Setting(name string) (string, bool) {
	v, ok := r.Config[name]
	return v, ok
}

// Role returns "master" or "slave" as INFO replication says, "" when
// unknown.
func (r *Redis) Role() string { return r.Info["role"] }

// RedisReplica is one replica of an audited primary.
type RedisReplica struct {
	Addr string // host:port
	// State is what the primary says of it (online, wait_bgsave, …), or
	// what the Sentinel's flags say when the primary does not list it.
	State string
	// LagSeconds is the time since its last acknowledgement, -1 when
	// unknown; BytesBehind the replication offset it lacks, -1 when
	// unknown.
	LagSeconds  int64
	BytesBehind int64
}

// String prints the replica as "host:port online, lag 0s, 12 bytes behind",
// leaving out what is unknown.
func (r RedisReplica) String() string {
	s := r.Addr
	if r.State != "" {
		s += " " + r.State
	}
	if r.LagSeconds >= 0 {
		s += ", lag " + strconv.FormatInt(r.LagSeconds, 10) + "s"
	}
	if r.BytesBehind >= 0 {
		s += ", " + strconv.FormatInt(r.BytesBehind, 10) + " bytes behind"
	}
	return s
}

// LockScan is the result of a bounded SCAN of the keys matching the lock
// pattern.
type LockScan struct {
	Pattern string
	// DB is the database number scanned.
	DB int
	// Examined counts the matching keys whose TTL was read.
	Examined int
	// Capped says the scan stopped at its bound before the keyspace ended:
	// keys after the first Examined were not looked at.
	Capped bool
	// WithoutTTL counts the examined keys that never expire; Samples names
	// up to five of them, the first in byte order.
	WithoutTTL int
	Samples    []string
}
