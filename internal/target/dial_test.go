package target

import (
	"context"
	"database/sql"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/dbtest"
)

// silentServer accepts every connection and never sends a byte. It
// returns host:port.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

// within runs f and fails t when it has not returned after limit: a hang
// is what these tests look for.
func within(t *testing.T, limit time.Duration, f func(context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("still waiting after %s", limit)
		return nil
	}
}

// TestConnectNoAnswer connects to a server that accepts and never
// answers: Connect, and a pool on Config without a read timeout (as guard
// migrate opens one), fail within the connect timeout naming the address.
func TestConnectNoAnswer(t *testing.T) {
	addr := silentServer(t)
	tg, err := Parse("guard:Secret-Pw-4711@tcp(" + addr + ")/shop")
	if err != nil {
		t.Fatal(err)
	}
	tg.SetConnectTimeout(500 * time.Millisecond)
	want := addr + ": no answer within 500ms"
	err = within(t, 10*time.Second, func(ctx context.Context) error {
		_, err := tg.Connect(ctx, ConnectOptions{})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "Secret-Pw") {
		t.Errorf("Connect: %v, want it to say %q", err, want)
	}

	err = within(t, 10*time.Second, func(ctx context.Context) error {
		cfg := tg.Config()
		cfg.ReadTimeout = 0
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return err
		}
		db := sql.OpenDB(conn)
		defer db.Close()
		return db.PingContext(ctx)
	})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ping without a read timeout: %v, want it to say %q", err, want)
	}
}

// TestRedisNoAnswer pings a server that accepts and never answers with
// every client Redis makes: each fails within the connect timeout, naming
// the address, and is not retried into several timeouts.
func TestRedisNoAnswer(t *testing.T) {
	addr := silentServer(t)
	r, err := ParseRedis("redis://:Secret-Pw-4711@" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	r.SetConnectTimeout(500 * time.Millisecond)
	want := addr + ": no answer within 500ms"
	// The audit's bounds: a read timeout of a minute, go-redis's retries.
	o := RedisOptions{PoolSize: 1, DialTimeout: DialTimeout, ReadTimeout: IOTimeout}
	for name, ping := range map[string]func(context.Context) error{
		"client": func(ctx context.Context) error {
			c := r.Client(o)
			defer c.Close()
			return c.Ping(ctx).Err()
		},
		"server client": func(ctx context.Context) error {
			c := r.ServerClient(addr, o)
			defer c.Close()
			return c.Ping(ctx).Err()
		},
		"sentinel client": func(ctx context.Context) error {
			c := r.SentinelClient(addr, o, true)
			defer c.Close()
			return c.Ping(ctx).Err()
		},
	} {
		t.Run(name, func(t *testing.T) {
			began := time.Now()
			err := within(t, 10*time.Second, ping)
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "Secret-Pw") {
				t.Errorf("ping: %v, want it to say %q", err, want)
			}
			// Retried, it would take at least twice the timeout.
			if took := time.Since(began); took >= 2*time.Second {
				t.Errorf("ping took %s: the attempts were retried", took)
			}
		})
	}
}

// TestRedissToPlainRedis speaks TLS to a plain redis-server, which does
// not answer a TLS hello: the error says the server is not speaking TLS.
func TestRedissToPlainRedis(t *testing.T) {
	srv := dbtest.Redis(t)
	r, err := ParseRedis("rediss://" + srv.Addr() + "/0")
	if err != nil {
		t.Fatal(err)
	}
	r.SetConnectTimeout(500 * time.Millisecond)
	err = within(t, 10*time.Second, func(ctx context.Context) error {
		c := r.Client(RedisOptions{PoolSize: 1})
		defer c.Close()
		return c.Ping(ctx).Err()
	})
	if want := srv.Addr() + " is not speaking TLS"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ping: %v, want it to say %q", err, want)
	}
}

// TestDialFailures counts the failed dials of a client of a server that
// is gone, one line per address.
func TestDialFailures(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r, err := ParseRedis(addr)
	if err != nil {
		t.Fatal(err)
	}
	var fails DialFailures
	c := r.Client(RedisOptions{PoolSize: 4, MaxRetries: -1, Failures: &fails})
	defer c.Close()
	for range 3 {
		if err := c.Ping(context.Background()).Err(); err == nil {
			t.Fatal("ping of a closed port succeeded")
		}
	}
	lines := fails.Lines()
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "redis "+addr+": failed to dial ×3 (first: ") || !strings.Contains(lines[0], "connection refused") {
		t.Errorf("lines %q, want one counting 3 failed dials of %s", lines, addr)
	}
}
