// Package driverlog turns the log lines of the MySQL and Redis client
// libraries into guard's own: "guard: mysql driver: unexpected EOF" instead
// of "[mysql] 2026/01/02 15:04:05 packets.go:58 unexpected EOF". Both
// libraries print to the process's stderr by default, outside every
// command's writers; what they say (a connection lost, a pool that could not
// dial) is already in the error the command reports, so a line is only
// context, and it must look like the rest of guard's output.
package driverlog

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"
)

// dest is where the package-wide loggers write; nil discards.
var dest atomic.Pointer[io.Writer]

var install sync.Once

// Route makes w the destination of the drivers' package-wide loggers,
// installing them on first use, and returns the function that puts the
// previous destination back (nil: discard). Call it before any DSN is
// parsed: a go-sql-driver config takes the package logger when it is
// created. A connection may still carry its own logger (MySQL).
func Route(w io.Writer) (restore func()) {
	prev := dest.Swap(&w)
	install.Do(func() {
		_ = mysql.SetLogger(MySQL(writerFunc(func(p []byte) (int, error) {
			if w := dest.Load(); w != nil && *w != nil {
				return (*w).Write(p)
			}
			return len(p), nil
		}), "guard: mysql driver: "))
		redis.SetLogger(redisLogger{})
	})
	return func() { dest.Store(prev) }
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// MySQL returns a go-sql-driver logger that writes each message to w as
// one line after prefix, without the driver's source position.
func MySQL(w io.Writer, prefix string) mysql.Logger {
	return mysqlLogger{w: w, prefix: prefix}
}

type mysqlLogger struct {
	w      io.Writer
	prefix string
}

// Print writes one line. The driver passes its source position
// ("packets.go:58 ") as the first value: it means nothing to a user.
func (l mysqlLogger) Print(v ...any) {
	if len(v) > 0 {
		if s, ok := v[0].(string); ok && isPosition(s) {
			v = v[1:]
		}
	}
	msg := strings.TrimSpace(fmt.Sprintln(v...))
	if msg == "" {
		return
	}
	fmt.Fprintf(l.w, "%s%s\n", l.prefix, oneLine(msg))
}

// isPosition reports whether s is "file.go:123 ".
func isPosition(s string) bool {
	s = strings.TrimSuffix(s, " ")
	file, line, ok := strings.Cut(s, ".go:")
	if !ok || file == "" || line == "" || strings.ContainsAny(file, " \t") {
		return false
	}
	for _, r := range line {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// redisLogger writes go-redis's messages to the package destination.
type redisLogger struct{}

func (redisLogger) Printf(_ context.Context, format string, v ...any) {
	w := dest.Load()
	if w == nil || *w == nil {
		return
	}
	msg := strings.TrimSpace(fmt.Sprintf(format, v...))
	msg = strings.TrimPrefix(msg, "redis: ")
	if msg == "" {
		return
	}
	fmt.Fprintf(*w, "guard: redis client: %s\n", oneLine(msg))
}

// oneLine keeps a message on one line of guard's output.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
