package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// silentServer listens on a loopback port, accepts every connection and
// never sends a byte: the server that hangs a client without a connect
// timeout. It returns host:port.
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

// guardWithin runs the command line and fails t when it has not returned
// within limit: a hang is the failure these tests look for.
func guardWithin(t *testing.T, limit time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		out, errOut string
		code        int
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(ctx, append([]string{"guard"}, args...), &out, &errb)
		done <- result{out.String(), errb.String(), code}
	}()
	select {
	case r := <-done:
		return r.out, r.errOut, r.code
	case <-time.After(limit):
		t.Fatalf("guard %s: still running after %s", strings.Join(args[:min(len(args), 2)], " "), limit)
		return "", "", 0
	}
}

// TestConnectTimeoutNoAnswer points every command at a server that accepts
// and never answers, MySQL and Redis: each returns, exit 3, with an error
// naming the address and saying it gave no answer, and no password.
func TestConnectTimeoutNoAnswer(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable)
	silent := silentServer(t)
	const redisPassword = "redis-Secret-4711"
	silentDSN := "guard:" + db.Password + "@tcp(" + silent + ")/" + db.Name
	silentRedis := "redis://:" + redisPassword + "@" + silent + "/0"
	dir := writeMigrations(t, map[string]string{"000001_create.up.sql": "CREATE TABLE t (id INT PRIMARY KEY);"})
	drill := []string{"drill", "--table", "t_stock", "--connect-timeout", "1s"}
	tests := []struct {
		name string
		args []string
	}{
		{"audit", []string{"audit", "--dsn", silentDSN, "--no-data", "--connect-timeout", "1s"}},
		{"audit redis", []string{"audit", "--redis", silentRedis, "--connect-timeout", "1s"}},
		{"drill", append(drill, "--dsn", silentDSN, "--strategies", "conditional")},
		{"drill redis", append(drill, "--dsn", db.DSN, "--redis", silentRedis, "--strategies", "lock-cas")},
		{"migrate up", []string{"migrate", "up", "--dsn", silentDSN, "--dir", dir, "--connect-timeout", "1s"}},
		{"migrate status", []string{"migrate", "status", "--dsn", silentDSN, "--dir", dir, "--connect-timeout", "1s"}},
		{"plan", []string{"plan", "--dsn", silentDSN, "--out", t.TempDir(), "--connect-timeout", "1s"}},
		{"gen dao", []string{"gen", "dao", "--table", "t_stock", "--dsn", silentDSN, "--out", t.TempDir(), "--package", "dao", "--connect-timeout", "1s"}},
		{"migrate fleet", []string{"migrate", "up", "--dsn", silentDSN, "--dsn", "guard:" + db.Password + "@tcp(" + silent + ")/other", "--dir", dir, "--connect-timeout", "1s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GUARD_DSN", "")
			out, errOut, code := guardWithin(t, 15*time.Second, tt.args...)
			all := out + errOut
			for _, secret := range []string{db.Password, redisPassword} {
				if strings.Contains(all, secret) {
					t.Errorf("a password appears in the output:\n%s", dbtest.Redact(strings.ReplaceAll(all, redisPassword, "[redis password]")))
				}
			}
			if want := silent + ": no answer within 1s"; code != exitRuntime || !strings.Contains(all, want) {
				t.Errorf("exit %d, want %d; output does not say %q:\n%s", code, exitRuntime, want, dbtest.Redact(all))
			}
		})
	}
}

// TestRedissToPlainRedis gives rediss:// to a Redis speaking plain RESP:
// the error names the address and says it does not speak TLS.
func TestRedissToPlainRedis(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable)
	srv := dbtest.Redis(t)
	url := "rediss://" + srv.Addr() + "/0"
	for name, args := range map[string][]string{
		"audit": {"audit", "--redis", url, "--connect-timeout", "1s"},
		"drill": {"drill", "--dsn", db.DSN, "--redis", url, "--table", "t_stock", "--strategies", "lock-cas", "--connect-timeout", "1s"},
	} {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := guardWithin(t, 15*time.Second, args...)
			if want := srv.Addr() + " is not speaking TLS"; code != exitRuntime || !strings.Contains(out+errOut, want) {
				t.Errorf("exit %d, want %d; output does not say %q:\n%s", code, exitRuntime, want, dbtest.Redact(out+errOut))
			}
		})
	}
}

// TestConnectTimeoutFlag refuses a --connect-timeout no connection could
// be made within, on every command that has it.
func TestConnectTimeoutFlag(t *testing.T) {
	for _, args := range [][]string{
		{"audit", "--redis", "127.0.0.1:1", "--connect-timeout", "0s"},
		{"drill", "--dsn", "u:p@tcp(127.0.0.1:1)/x", "--table", "t", "--connect-timeout", "-1s"},
		{"migrate", "status", "--dsn", "u:p@tcp(127.0.0.1:1)/x", "--connect-timeout", "0s"},
		{"plan", "--dsn", "u:p@tcp(127.0.0.1:1)/x", "--out", t.TempDir(), "--connect-timeout", "0s"},
		{"gen", "dao", "--table", "t", "--dsn", "u:p@tcp(127.0.0.1:1)/x", "--out", t.TempDir(), "--package", "dao", "--connect-timeout", "0s"},
	} {
		_, errOut, code := guard(t, args...)
		if code != exitInput || !strings.Contains(errOut, "--connect-timeout") {
			t.Errorf("guard %s: exit %d, stderr %q: want 2 naming --connect-timeout", strings.Join(args, " "), code, errOut)
		}
	}
}
