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
	// connectTimeout is SetConnectTimeout's; 0 is DialTimeout.
	connectTimeout time.Duration
}

// SetConnectTimeout bounds how long a server has to accept a connection
// and answer (d <= 0: DialTimeout); a client's shorter DialTimeout wins.
func (r *Redis) SetConnectTimeout(d time.Duration) { r.connectTimeout = d }

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
	PoolSize int
	// DialTimeout is the connect timeout when the Redis has none set
	// (SetConnectTimeout); 0 is DialTimeout.
	DialTimeout, ReadTimeout  time.Duration
	MaxRetries, DialerRetries int
	// Failures, when set, counts the connections the client could not open.
	Failures *DialFailures
}

// connectTimeoutOf is the connect timeout of r's clients made with o.
func (r *Redis) connectTimeoutOf(o RedisOptions) time.Duration {
	switch {
	case r.connectTimeout > 0:
		return r.connectTimeout
	case o.DialTimeout > 0:
		return o.DialTimeout
	}
	return DialTimeout
}

// clientOptions are the options every client of r is made with: its
// connections are made by guard's dialer, proved answering within the
// connect timeout (TLS handshake included), and a dial that failed is not
// tried again at once: the command's own retries redial.
func (r *Redis) clientOptions(addr, password string, o RedisOptions) *redis.Options {
	timeout := r.connectTimeoutOf(o)
	return &redis.Options{
		Addr: addr, Username: r.user, Password: password, DB: r.db,
		Dialer: r.redisDialer(timeout, o.Failures),
		// go-redis's own bound on the dialer, which gives up first.
		DialTimeout: 2*timeout + plainProbeTimeout,
		ReadTimeout: o.ReadTimeout, WriteTimeout: o.ReadTimeout,
		MaxRetries: o.MaxRetries, PoolSize: o.PoolSize,
		DialerRetries: max(o.DialerRetries, 1), DialerRetryTimeout: 10 * time.Millisecond,
	}
}

// Client returns a client of r: a plain one, or a failover client asking
// the sentinels for the master.
func (r *Redis) Client(o RedisOptions) redis.UniversalClient {
	opts := r.clientOptions(r.addrs[0], r.password, o)
	if r.master != "" {
		return redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: r.master, SentinelAddrs: r.addrs,
			Username: r.user, Password: r.password, SentinelPassword: r.password, DB: r.db,
			Dialer: opts.Dialer, DialTimeout: opts.DialTimeout, ReadTimeout: opts.ReadTimeout, WriteTimeout: opts.WriteTimeout,
			MaxRetries: opts.MaxRetries, PoolSize: opts.PoolSize,
			DialerRetries: opts.DialerRetries, DialerRetryTimeout: opts.DialerRetryTimeout,
		})
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
	return redis.NewClient(r.clientOptions(addr, r.password, o))
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
	opts := r.clientOptions(addr, password, o)
	opts.Username, opts.DB = "", 0
	return redis.NewSentinelClient(opts)
}

// HasPassword reports whether the address holds a password.
func (r *Redis) HasPassword() bool { return r.password != "" }
