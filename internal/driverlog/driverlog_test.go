package driverlog

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"
)

func TestMySQLLine(t *testing.T) {
	for _, tc := range []struct {
		v    []any
		want string
	}{
		{[]any{"packets.go:58 ", io.ErrUnexpectedEOF}, "p: unexpected EOF\n"},
		{[]any{"connection.go:190 ", "closing connection:", "broken\npipe"}, "p: closing connection: broken pipe\n"},
		// Not a source position: kept.
		{[]any{"unknown auth plugin:", "x"}, "p: unknown auth plugin: x\n"},
		{[]any{"a.go:12x ", "y"}, "p: a.go:12x y\n"},
		{nil, ""},
	} {
		var b bytes.Buffer
		MySQL(&b, "p: ").Print(tc.v...)
		if b.String() != tc.want {
			t.Errorf("Print(%q) wrote %q, want %q", tc.v, b.String(), tc.want)
		}
	}
}

// Route reaches the drivers' package-wide loggers: a go-sql-driver config
// made afterwards and go-redis's own messages write guard's lines to the
// routed writer, never "[mysql] …" or "redis: …" to the process's stderr.
func TestRoute(t *testing.T) {
	var b bytes.Buffer
	restore := Route(&b)
	mysql.NewConfig().Logger.Print("packets.go:58 ", io.ErrUnexpectedEOF)

	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 50 * time.Millisecond, MaxRetries: -1})
	// go-redis logs the truncated expiry before it sends anything, then
	// the dial that failed.
	_ = c.Set(context.Background(), "k", "v", time.Microsecond).Err()
	c.Close()
	restore()
	// Restored: nothing more reaches b.
	mysql.NewConfig().Logger.Print("after")

	for _, want := range []string{
		"guard: mysql driver: unexpected EOF\n",
		"guard: redis client: specified duration is 1µs, but minimal supported value is 1ms - truncating to 1ms\n",
		"guard: redis client: connection pool: failed to dial",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("routed lines lack %q:\n%s", want, b.String())
		}
	}
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" && !strings.HasPrefix(line, "guard: ") || strings.Contains(line, "redis: ") {
			t.Errorf("not one of guard's lines: %q", line)
		}
	}
}
