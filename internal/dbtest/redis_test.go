package dbtest

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// throwawayRedis starts a local server whatever GUARD_TEST_REDIS_ADDR says:
// these tests check the fault injection itself.
func throwawayRedis(t *testing.T) *RedisServer {
	t.Helper()
	return startRedis(t, plainRedisArgs)
}

// refused reports whether a TCP connection to addr is refused.
func refused(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		conn.Close()
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

func mustSet(t *testing.T, c *redis.Client, key, value string) {
	t.Helper()
	if err := c.Set(context.Background(), key, value, 0).Err(); err != nil {
		t.Fatalf("SET %s: %v", key, err)
	}
}

// get returns the value of key, or "<nil>" when it is missing.
func get(t *testing.T, c *redis.Client, key string) string {
	t.Helper()
	v, err := c.Get(context.Background(), key).Result()
	if errors.Is(err, redis.Nil) {
		return "<nil>"
	}
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	return v
}

func TestRedisSetGet(t *testing.T) {
	r := Redis(t)
	c := r.Client()
	if r.Client() != c {
		t.Errorf("Client returned a new client on the second call")
	}
	mustSet(t, c, "lock:order:1", "token")
	if got := get(t, c, "lock:order:1"); got != "token" {
		t.Errorf("GET = %q, want %q", got, "token")
	}
}

func TestRedisServersAreSeparate(t *testing.T) {
	a, b := throwawayRedis(t), throwawayRedis(t)
	if a.Addr() == b.Addr() {
		t.Fatalf("two servers on %s", a.Addr())
	}
	mustSet(t, a.Client(), "k", "a")
	if got := get(t, b.Client(), "k"); got != "<nil>" {
		t.Errorf("key of %s seen on %s: %q", a.Addr(), b.Addr(), got)
	}
}

func TestRedisFaults(t *testing.T) {
	tests := []struct {
		name string
		down func(r *RedisServer)
	}{
		{"stop", (*RedisServer).Stop},
		{"kill", (*RedisServer).Kill},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := throwawayRedis(t)
			addr := r.Addr()
			mustSet(t, r.Client(), "k", "v")

			tt.down(r)
			if !refused(addr) {
				t.Fatalf("%s after %s: connection not refused", addr, tt.name)
			}
			tt.down(r) // a second time does nothing

			r.Start()
			if r.Addr() != addr {
				t.Errorf("Start moved the server from %s to %s", addr, r.Addr())
			}
			// Nothing persists: a started server is empty.
			if got := get(t, r.Client(), "k"); got != "<nil>" {
				t.Errorf("GET after restart = %q, want nothing", got)
			}
			mustSet(t, r.Client(), "k", "again")
			if got := get(t, r.Client(), "k"); got != "again" {
				t.Errorf("GET = %q, want %q", got, "again")
			}
		})
	}
}

func TestRedisRestart(t *testing.T) {
	r := throwawayRedis(t)
	mustSet(t, r.Client(), "k", "v")
	pid := r.proc.cmd.Process.Pid
	r.Restart()
	if r.proc.cmd.Process.Pid == pid {
		t.Errorf("Restart kept process %d", pid)
	}
	if got := get(t, r.Client(), "k"); got != "<nil>" {
		t.Errorf("GET after Restart = %q, want nothing", got)
	}
}

func TestRedisStartWhileRunningFails(t *testing.T) {
	r := throwawayRedis(t)
	msg, failed := recordFatal(t, func(tb testing.TB) {
		r.t = tb
		r.Start()
	})
	r.t = t
	if !failed || !strings.Contains(msg, "already running") {
		t.Errorf("Start of a running server: failed=%v %q, want an already running failure", failed, msg)
	}
	if refused(r.Addr()) {
		t.Errorf("the running server went away")
	}
}

func TestRedisFlush(t *testing.T) {
	r := throwawayRedis(t)
	c := r.Client()
	ctx := context.Background()
	mustSet(t, c, "a", "1")
	if err := c.Do(ctx, "SELECT", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if err := redis.NewClient(&redis.Options{Addr: r.Addr(), DB: 3}).Set(ctx, "b", "2", 0).Err(); err != nil {
		t.Fatal(err)
	}
	r.Flush()
	for _, db := range []int{0, 3} {
		c := redis.NewClient(&redis.Options{Addr: r.Addr(), DB: db})
		n, err := c.DBSize(ctx).Result()
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("db %d holds %d keys after Flush", db, n)
		}
	}
}

func TestRedisExisting(t *testing.T) {
	host := throwawayRedis(t)
	t.Setenv(EnvRedisAddr, host.Addr())
	r := Redis(t)
	if r.Addr() != host.Addr() {
		t.Fatalf("Redis with %s=%s gave %s", EnvRedisAddr, host.Addr(), r.Addr())
	}
	mustSet(t, r.Client(), "k", "v")
	r.Flush()
	if got := get(t, host.Client(), "k"); got != "<nil>" {
		t.Errorf("Flush left k = %q", got)
	}
	for name, op := range map[string]func(*RedisServer){
		"Stop": (*RedisServer).Stop, "Kill": (*RedisServer).Kill,
		"Start": (*RedisServer).Start, "Restart": (*RedisServer).Restart,
	} {
		msg, failed := recordFatal(t, func(tb testing.TB) {
			r.t = tb
			op(r)
		})
		if !failed || !strings.Contains(msg, "throwaway redis-server") || !strings.Contains(msg, "unset "+EnvRedisAddr) {
			t.Errorf("%s on an existing server: failed=%v %q", name, failed, msg)
		}
	}
	if refused(host.Addr()) {
		t.Errorf("a fault reached the existing server")
	}
}

func TestReadReply(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"+PONG\r\n", "PONG", ""},
		{":42\r\n", "42", ""},
		{"$5\r\nhello\r\n", "hello", ""},
		{"$0\r\n\r\n", "", ""},
		{"$-1\r\n", "", "nil reply"},
		{"-ERR unknown command\r\n", "", "server error: ERR unknown command"},
		{"*1\r\n$1\r\na\r\n", "", `read reply: unsupported reply "*1"`},
		{"$x\r\n", "", `read reply: bad bulk length "x"`},
		{"$9999999999\r\n", "", "read reply: bulk length 9999999999 over 536870912"},
		{"$5\r\nhi\r\n", "", "read reply: unexpected EOF"},
		{"$2\r\nhiya\r\n", "", "read reply: bulk string not ended by CRLF"},
		{"\r\n", "", "read reply: empty line"},
		{"", "", "read reply: EOF"},
	}
	for _, tt := range tests {
		got, err := readReply(bufio.NewReader(strings.NewReader(tt.in)))
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.wantErr {
			t.Errorf("readReply(%q) = %q, %q; want %q, %q", tt.in, got, gotErr, tt.want, tt.wantErr)
		}
	}
}

func FuzzReadReply(f *testing.F) {
	for _, seed := range []string{"+OK\r\n", ":1\r\n", "$3\r\nabc\r\n", "$-1\r\n", "-ERR x\r\n", "*0\r\n", "$-9\r\n", "$2\r\na"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := readReply(bufio.NewReader(strings.NewReader(in)))
		if err == nil && len(got) > len(in) {
			t.Errorf("reply %q longer than input %q", got, in)
		}
	})
}

func TestInfoField(t *testing.T) {
	info := "# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\nmaster_link_status:up\r\n"
	tests := []struct{ field, want string }{
		{"role", "slave"},
		{"master_link_status", "up"},
		{"master", ""},
		{"missing", ""},
	}
	for _, tt := range tests {
		if got := infoField(info, tt.field); got != tt.want {
			t.Errorf("infoField(%q) = %q, want %q", tt.field, got, tt.want)
		}
	}
}

func TestSentinelFailover(t *testing.T) {
	s := Sentinel(t)
	if s.MasterName() != "mymaster" || len(s.SentinelAddrs()) != 1 {
		t.Fatalf("MasterName %q, SentinelAddrs %v", s.MasterName(), s.SentinelAddrs())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fc := s.FailoverClient()
	if err := fc.Set(ctx, "k", "before", 0).Err(); err != nil {
		t.Fatalf("SET through the sentinel: %v", err)
	}

	began := time.Now()
	s.Master().Kill()
	addr, err := s.WaitFailover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("failover to %s in %v", addr, time.Since(began))
	if addr != s.Replica().Addr() {
		t.Errorf("new master %s, want the replica %s", addr, s.Replica().Addr())
	}
	// The failover client finds the new master, possibly after a failed try.
	if err := poll(ctx, func() (bool, error) {
		err := fc.Set(ctx, "k", "after", 0).Err()
		return err == nil, err
	}); err != nil {
		t.Fatalf("SET after failover: %v", err)
	}
	if got := get(t, s.Replica().Client(), "k"); got != "after" {
		t.Errorf("GET on the promoted replica = %q, want %q", got, "after")
	}
}
