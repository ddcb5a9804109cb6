package target

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestMain stops the throwaway servers of the package's tests.
func TestMain(m *testing.M) { dbtest.Main(m) }

func TestConnect(t *testing.T) {
	db := dbtest.MySQL(t)
	tg, err := Parse(db.DSN)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	pool, err := tg.Connect(context.Background(), ConnectOptions{})
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	defer pool.Close()
	var name string
	if err := pool.QueryRow("SELECT DATABASE()").Scan(&name); err != nil || name != tg.Database() {
		t.Errorf("connected to %q (%v), want %q", name, err, tg.Database())
	}

	// A server that refuses: the error says connect and shows no password.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	closed, err := Parse("guard:" + db.Password + "@tcp(" + addr + ")/" + db.Name)
	if err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	if _, err := closed.Connect(context.Background(), ConnectOptions{}); err == nil || !strings.HasPrefix(err.Error(), "connect: ") ||
		SecretFragment(err.Error(), db.Password) != "" {
		t.Errorf("unreachable server: error %v", dbtest.Redact(err.Error()))
	}
}

func TestRedisClient(t *testing.T) {
	ctx := context.Background()
	plain := dbtest.Redis(t)
	r, err := ParseRedis("redis://" + plain.Addr() + "/3")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Client(RedisOptions{PoolSize: 2})
	defer c.Close()
	if err := c.Set(ctx, "guard-target", "x", 0).Err(); err != nil {
		t.Fatal(err)
	}
	// The key is in database 3, not in the default one.
	if n, err := plain.Client().Exists(ctx, "guard-target").Result(); err != nil || n != 0 {
		t.Errorf("database 0 holds the key (%d, %v): /3 was ignored", n, err)
	}
	if got, err := c.Get(ctx, "guard-target").Result(); err != nil || got != "x" {
		t.Errorf("get = %q, %v", got, err)
	}

	s := dbtest.Sentinel(t)
	r, err = ParseRedis("sentinel://" + strings.Join(s.SentinelAddrs(), ",") + "/" + s.MasterName())
	if err != nil {
		t.Fatal(err)
	}
	fc := r.Client(RedisOptions{PoolSize: 2})
	defer fc.Close()
	if err := fc.Set(ctx, "guard-target", "y", 0).Err(); err != nil {
		t.Fatalf("through the sentinel: %v", err)
	}
	if got, err := s.Master().Client().Get(ctx, "guard-target").Result(); err != nil || got != "y" {
		t.Errorf("the master holds %q (%v), want the value written through the sentinel", got, err)
	}
}
