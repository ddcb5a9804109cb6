package dbtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisAdvice ends the failure of a test that finds no redis-server to use.
const redisAdvice = "install it with `apt-get install -y redis-server` (or set " + EnvRedisAddr + ")"

// redisReadyTimeout bounds the wait for a started redis-server to answer PING.
const redisReadyTimeout = 10 * time.Second

// redisArgsFunc returns the command line of a server listening on port with
// dir as its working directory. It runs before every start, so it may write
// a configuration file there.
type redisArgsFunc func(dir string, port int) ([]string, error)

// RedisServer is a redis-server for one test: a throwaway process the test
// may stop, kill and start again on the same address, or the existing server
// of GUARD_TEST_REDIS_ADDR, which only supports Addr, Flush and Client.
type RedisServer struct {
	t        testing.TB
	bin      string
	dir      string
	port     int
	addr     string
	args     redisArgsFunc
	external bool
	// password is the requirepass of RedisWithPassword; "" for none.
	password string

	mu     sync.Mutex
	proc   *process
	client *redis.Client
}

// Redis returns a fresh redis-server listening on a free loopback port,
// stopped when t ends. The server keeps nothing on disk: a restart starts
// empty. A missing redis-server fails t with the command that installs it.
func Redis(t testing.TB) *RedisServer {
	t.Helper()
	if addr := os.Getenv(EnvRedisAddr); addr != "" {
		return &RedisServer{t: t, addr: addr, external: true}
	}
	return startRedis(t, plainRedisArgs)
}

// plainRedisArgs configures a standalone server without persistence.
func plainRedisArgs(dir string, port int) ([]string, error) {
	return []string{
		"--port", strconv.Itoa(port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", dir,
		"--daemonize", "no",
		"--loglevel", "warning",
		// SIGTERM is acted on at the next cron tick: 10 ms, not 100 ms.
		"--hz", "100",
		// A replica gets its first copy at once, not after 5 s.
		"--repl-diskless-sync-delay", "0",
	}, nil
}

// startRedis starts a throwaway server with the command line of args on a
// free port, stopped when t ends.
func startRedis(t testing.TB, args redisArgsFunc) *RedisServer {
	t.Helper()
	return startRedisAs(t, "", args)
}

// startRedisAs is startRedis for a server that asks for password ("" for
// none).
func startRedisAs(t testing.TB, password string, args redisArgsFunc) *RedisServer {
	t.Helper()
	bin, err := findBinary([]string{"redis-server"}, []string{"/usr/bin", "/usr/local/bin"}, redisAdvice)
	if err != nil {
		fatalf(t, "%v", err)
	}
	r := &RedisServer{t: t, bin: bin, dir: t.TempDir(), args: args, password: password}
	for attempt := 1; ; attempt++ {
		if r.port, err = freePort(); err != nil {
			fatalf(t, "%v", err)
		}
		r.addr = loopback(r.port)
		err = r.start()
		if errors.Is(err, errAddrInUse) && attempt < startAttempts {
			continue
		}
		if err != nil {
			fatalf(t, "%v", err)
		}
		break
	}
	// Registered after t.TempDir: cleanups run last-in first-out, so the
	// server stops before its directory goes.
	t.Cleanup(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.proc != nil {
			r.proc.stop(stopTimeout)
			r.proc = nil
		}
	})
	return r
}

// start runs the server on r.port and waits until it answers.
func (r *RedisServer) start() error {
	args, err := r.args(r.dir, r.port)
	if err != nil {
		return err
	}
	p, err := startProcess("redis-server", r.bin, args, filepath.Join(r.dir, "redis.log"))
	if err != nil {
		return err
	}
	deadline := time.Now().Add(redisReadyTimeout)
	for {
		// Ask for the pid, not just PING: another process may have taken
		// the port between freePort and the bind, and answer in our place.
		var info string
		info, err = redisCommandAs(r.addr, r.password, "INFO", "server")
		if err == nil && infoField(info, "process_id") == strconv.Itoa(p.cmd.Process.Pid) {
			r.proc = p
			return nil
		}
		if p.exited() {
			tail := p.logTail()
			if strings.Contains(tail, "Address already in use") {
				return errAddrInUse
			}
			return fmt.Errorf("redis-server on %s exited (%v); %s:\n%s", r.addr, p.err, p.log, tail)
		}
		if time.Now().After(deadline) {
			p.kill()
			return fmt.Errorf("redis-server on %s not ready after %v: %v; %s:\n%s", r.addr, redisReadyTimeout, err, p.log, p.logTail())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Addr returns the server's host:port.
func (r *RedisServer) Addr() string { return r.addr }

// Stop shuts the server down (SIGTERM, then SIGKILL after 10 s) and returns
// once it is gone: connections to Addr are then refused. Stopping a stopped
// server does nothing.
func (r *RedisServer) Stop() {
	r.t.Helper()
	r.needThrowaway("Stop")
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc != nil {
		r.proc.stop(stopTimeout)
		r.proc = nil
	}
}

// Kill ends the server with SIGKILL, as a crash would, and returns once it
// is gone.
func (r *RedisServer) Kill() {
	r.t.Helper()
	r.needThrowaway("Kill")
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc != nil {
		r.proc.kill()
		r.proc = nil
	}
}

// Start starts a stopped or killed server again on the same address and
// waits until it answers PING. It fails the test if the server is running or
// the address was taken meanwhile.
func (r *RedisServer) Start() {
	r.t.Helper()
	r.needThrowaway("Start")
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc != nil && !r.proc.exited() {
		fatalf(r.t, "start redis-server on %s: already running", r.addr)
	}
	r.proc = nil
	// The port may linger for a moment after the old process is gone.
	var err error
	for attempt := 1; attempt <= startAttempts; attempt++ {
		if err = r.start(); !errors.Is(err, errAddrInUse) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		fatalf(r.t, "start redis-server again: %v", err)
	}
}

// Restart stops the server and starts it again on the same address.
func (r *RedisServer) Restart() {
	r.t.Helper()
	r.Stop()
	r.Start()
}

// Flush removes every key of every database (FLUSHALL).
func (r *RedisServer) Flush() {
	r.t.Helper()
	reply, err := redisCommandAs(r.addr, r.password, "FLUSHALL")
	if err != nil {
		fatalf(r.t, "flush redis %s: %v", r.addr, err)
	}
	if reply != "OK" {
		fatalf(r.t, "flush redis %s: unexpected reply %q", r.addr, reply)
	}
}

// Client returns a go-redis client of the server, the same one on every call,
// closed when the test ends.
func (r *RedisServer) Client() *redis.Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.client == nil {
		client := redis.NewClient(&redis.Options{Addr: r.addr, Password: r.password})
		r.client = client
		r.t.Cleanup(func() { client.Close() })
	}
	return r.client
}

// needThrowaway fails the test when a fault is asked of an existing server.
func (r *RedisServer) needThrowaway(op string) {
	r.t.Helper()
	if r.external {
		fatalf(r.t, "%s redis %s: %s names an existing server; fault tests need a throwaway redis-server: unset %s",
			op, r.addr, EnvRedisAddr, EnvRedisAddr)
	}
}

// RedisWith returns a throwaway redis-server started with extra after the
// options of Redis, which they override ("--appendonly", "yes",
// "--maxmemory", "64mb" …), stopped when t ends. It always starts a local
// process, whatever GUARD_TEST_REDIS_ADDR says: the test is about the
// configuration.
func RedisWith(t testing.TB, extra ...string) *RedisServer {
	t.Helper()
	return startRedis(t, func(dir string, port int) ([]string, error) {
		args, err := plainRedisArgs(dir, port)
		return append(args, extra...), err
	})
}

// RedisWithPassword is RedisWith for a server that asks for password
// (requirepass); Client and Flush authenticate, and Redact hides it.
func RedisWithPassword(t testing.TB, password string, extra ...string) *RedisServer {
	t.Helper()
	addSecret(password)
	return startRedisAs(t, password, func(dir string, port int) ([]string, error) {
		args, err := plainRedisArgs(dir, port)
		return append(append(args, "--requirepass", password), extra...), err
	})
}

// RedisReplicaOf starts a throwaway redis-server replicating primary, with
// extra options as RedisWith takes them, and returns once the primary lists
// it as an online replica.
func RedisReplicaOf(t testing.TB, primary *RedisServer, extra ...string) *RedisServer {
	t.Helper()
	replica := startRedis(t, func(dir string, port int) ([]string, error) {
		args, err := plainRedisArgs(dir, port)
		args = append(args, "--replicaof", "127.0.0.1", strconv.Itoa(primary.port))
		return append(args, extra...), err
	})
	deadline := time.Now().Add(redisReadyTimeout)
	for {
		info, err := redisCommand(primary.addr, "INFO", "replication")
		if err == nil && strings.Contains(infoField(info, "slave0"), "state=online") {
			return replica
		}
		if time.Now().After(deadline) {
			fatalf(t, "replica %s not online on %s after %v: %v", replica.addr, primary.addr, redisReadyTimeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
