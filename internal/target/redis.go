package target

import (
	"crypto/tls"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Redis server or a Sentinel-watched master, parsed from one of
// host:port, redis://[user:password@]host:port[/db], rediss://… (TLS) or
// sentinel://[:password@]host:port[,host:port…]/mastername.
type Redis struct {
	addrs    []string // the server, or the sentinels
	master   string   // set for sentinel://
	user     string
	password string
	db       int
	tls      bool
	secrets  []string
}

// The problems of a Redis address; fixed text, as those of a DSN.
const (
	probRedisForm = `want host:port, redis://host:port/db, rediss://host:port/db or sentinel://host:port/mastername`
	probRedisDB   = `the database is not a number`
	probRedisName = `no master name after "/"`
	probRedisOpts = `redis:// parameters are not supported`
)

// ParseRedis parses a Redis address. Its errors are *ParseError and hold no
// text of the address.
func ParseRedis(addr string) (*Redis, error) {
	s := strings.TrimSpace(addr)
	fail := func(off int, problem string) error {
		e := failAt(s, off, problem)
		e.redis = true
		return e
	}
	i := strings.Index(s, "://")
	if i < 0 {
		// host:port; an empty host is the local one, as go-redis has it.
		host, port, err := net.SplitHostPort(s)
		if err != nil || !validPort(port) || strings.ContainsAny(host, "@/?#%") {
			return nil, fail(0, probRedisForm)
		}
		return &Redis{addrs: []string{s}}, nil
	}
	scheme := strings.ToLower(s[:i])
	if scheme != "redis" && scheme != "rediss" && scheme != "sentinel" {
		return nil, fail(0, probRedisForm)
	}
	u, perr := splitURL(s, i+3, scheme == "sentinel")
	if perr != nil {
		perr.redis = true
		return nil, perr
	}
	if u.query != "" || strings.HasSuffix(u.path, "?") {
		return nil, fail(u.queryAt, probRedisOpts)
	}
	r := &Redis{user: u.user, password: u.pass, tls: scheme == "rediss"}
	if u.rawPass != "" {
		r.secrets = append(r.secrets, u.rawPass)
	}
	if r.password != "" {
		r.secrets = append(r.secrets, r.password)
	}
	r.secrets = uniqueSecrets(r.secrets)
	name := strings.TrimPrefix(u.path, "/")
	if scheme == "sentinel" {
		if name == "" || strings.Contains(name, "/") {
			return nil, fail(u.pathAt, probRedisName)
		}
		r.addrs, r.master = u.hosts, name
		return r, nil
	}
	port := u.port
	if port == "" {
		port = "6379"
	}
	r.addrs = []string{net.JoinHostPort(u.host, port)}
	if name != "" {
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 {
			return nil, fail(u.pathAt+1, probRedisDB)
		}
		r.db = n
	}
	return r, nil
}

func (r *Redis) secretForms() []string {
	if r == nil {
		return nil
	}
	return r.secrets
}

// Name returns host:port/db, or sentinel host:port/master: never a password.
func (r *Redis) Name() string {
	if r.master != "" {
		return "sentinel " + strings.Join(r.addrs, ",") + "/" + r.master
	}
	return r.addrs[0] + "/" + strconv.Itoa(r.db)
}

// String is Name, so that printing a Redis by mistake leaks nothing.
func (r *Redis) String() string { return r.Name() }

// RedisOptions are guard's bounds on a Redis client.
type RedisOptions struct {
	PoolSize                  int
	DialTimeout, ReadTimeout  time.Duration
	MaxRetries, DialerRetries int
}

// Client returns a client of r: a plain one, or a failover client asking
// the sentinels for the master.
func (r *Redis) Client(o RedisOptions) redis.UniversalClient {
	if r.master != "" {
		return redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: r.master, SentinelAddrs: r.addrs,
			Username: r.user, Password: r.password, SentinelPassword: r.password, DB: r.db,
			DialTimeout: o.DialTimeout, ReadTimeout: o.ReadTimeout, WriteTimeout: o.ReadTimeout,
			MaxRetries: o.MaxRetries, PoolSize: o.PoolSize,
		})
	}
	opts := &redis.Options{
		Addr: r.addrs[0], Username: r.user, Password: r.password, DB: r.db,
		DialTimeout: o.DialTimeout, ReadTimeout: o.ReadTimeout, WriteTimeout: o.ReadTimeout,
		MaxRetries: o.MaxRetries, PoolSize: o.PoolSize,
		DialerRetries: o.DialerRetries, DialerRetryTimeout: 10 * time.Millisecond,
	}
	if r.tls {
		opts.TLSConfig = tlsConfig(r.addrs[0])
	}
	return redis.NewClient(opts)
}

// tlsConfig verifies the server's certificate against its host name, as
// redis.ParseURL does for rediss://.
func tlsConfig(addr string) *tls.Config {
	host, _, _ := net.SplitHostPort(addr)
	return &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
}

// URL names the server for findings: redis://host:port (rediss:// for
// TLS), with /db when the database is not 0; sentinel://host:port/master for
// a Sentinel-watched master, whose findings name the primary it found with
// PrimaryURL. It never holds a password.
func (r *Redis) URL() string {
	if r.master != "" {
		return "sentinel://" + strings.Join(r.addrs, ",") + "/" + r.master
	}
	return r.PrimaryURL(r.addrs[0])
}

// PrimaryURL names the server at addr (host:port) as URL names r.
func (r *Redis) PrimaryURL(addr string) string {
	scheme := "redis://"
	if r.tls {
		scheme = "rediss://"
	}
	s := scheme + addr
	if r.db != 0 {
		s += "/" + strconv.Itoa(r.db)
	}
	return s
}

// Addr returns the host:port of a server addressed directly; for a
// sentinel:// address, the first sentinel's.
func (r *Redis) Addr() string { return r.addrs[0] }

// DB returns the database number the address names (0 when none).
func (r *Redis) DB() int { return r.db }

// Sentinels returns the sentinels' addresses and the master name of a
// sentinel:// address; nil and "" for a server addressed directly.
func (r *Redis) Sentinels() ([]string, string) {
	if r.master == "" {
		return nil, ""
	}
	return r.addrs, r.master
}

// ServerClient returns a plain client of the server at addr with r's
// credentials, database and TLS: the server of a host:port or redis://
// address, or the primary a Sentinel named.
func (r *Redis) ServerClient(addr string, o RedisOptions) *redis.Client {
	opts := &redis.Options{
		Addr: addr, Username: r.user, Password: r.password, DB: r.db,
		DialTimeout: o.DialTimeout, ReadTimeout: o.ReadTimeout, WriteTimeout: o.ReadTimeout,
		MaxRetries: o.MaxRetries, PoolSize: o.PoolSize,
	}
	if r.tls {
		opts.TLSConfig = tlsConfig(addr)
	}
	return redis.NewClient(opts)
}

// SentinelClient returns a client of the sentinel at addr, authenticated as
// Client authenticates to the sentinels when auth is true, and without a
// password when it is false: sentinels often ask for none while the servers
// they watch do.
func (r *Redis) SentinelClient(addr string, o RedisOptions, auth bool) *redis.SentinelClient {
	password := ""
	if auth {
		password = r.password
	}
	return redis.NewSentinelClient(&redis.Options{
		Addr: addr, Password: password,
		DialTimeout: o.DialTimeout, ReadTimeout: o.ReadTimeout, WriteTimeout: o.ReadTimeout,
		MaxRetries: o.MaxRetries, PoolSize: o.PoolSize,
	})
}

// HasPassword reports whether the address holds a password.
func (r *Redis) HasPassword() bool { return r.password != "" }
