// Package dbtest gives tests real, throwaway MariaDB and Redis servers.
//
// MySQL hands every caller a fresh database on a mariadbd shared by the whole
// test binary; Redis starts a fresh redis-server per call, which tests may stop,
// kill and restart to inject faults; Sentinel adds a master, a replica and a
// redis-sentinel. The servers are started lazily and live in temporary
// directories. A test package stops them by calling Main from TestMain:
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
// Without Main the servers still die with the test binary (on Linux they get
// SIGKILL when it exits) and their directories are removed by the next run.
//
// GUARD_TEST_MYSQL_DSN (a root-capable DSN such as root:pw@tcp(127.0.0.1:3306)/)
// and GUARD_TEST_REDIS_ADDR (host:port) point the tests at existing servers
// instead. A missing server binary fails the test with the command that
// installs it: integration tests never skip silently.
package dbtest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// Environment variables that select existing servers instead of throwaway ones.
const (
	EnvMySQLDSN  = "GUARD_TEST_MYSQL_DSN"
	EnvRedisAddr = "GUARD_TEST_REDIS_ADDR"
)

// Main runs the tests of a package, stops every server the package started,
// removes their directories and exits with the tests' code. Call it from
// TestMain.
func Main(m *testing.M) {
	code := m.Run()
	shutdown()
	os.Exit(code)
}

// AtExit has Main call fn once the tests ran, before it stops the servers:
// another fixture a test binary shares (a browser) ends with the binary
// too.
func AtExit(fn func()) { registerCloser(fn) }

// registry remembers what the test binary started so that Main can undo it.
var registry struct {
	sync.Mutex
	procs   map[*process]struct{}
	dirs    []string
	closers []func()
}

func registerProcess(p *process) {
	registry.Lock()
	defer registry.Unlock()
	if registry.procs == nil {
		registry.procs = make(map[*process]struct{})
	}
	registry.procs[p] = struct{}{}
}

func unregisterProcess(p *process) {
	registry.Lock()
	defer registry.Unlock()
	delete(registry.procs, p)
}

// registerDir schedules dir for removal by Main.
func registerDir(dir string) {
	registry.Lock()
	defer registry.Unlock()
	registry.dirs = append(registry.dirs, dir)
}

// registerCloser schedules fn (closing a connection pool) to run in Main
// before the servers stop.
func registerCloser(fn func()) {
	registry.Lock()
	defer registry.Unlock()
	registry.closers = append(registry.closers, fn)
}

// shutdown stops every running server in parallel, then removes the
// directories: a server must be gone before its data directory is.
func shutdown() {
	registry.Lock()
	procs := make([]*process, 0, len(registry.procs))
	for p := range registry.procs {
		procs = append(procs, p)
	}
	closers, dirs := registry.closers, registry.dirs
	registry.closers, registry.dirs = nil, nil
	registry.Unlock()

	for _, fn := range closers {
		fn()
	}
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.stop(stopTimeout)
		}()
	}
	wg.Wait()
	for _, dir := range dirs {
		os.RemoveAll(dir)
	}
}

// redactedText replaces secrets in Redact's output.
const redactedText = "[redacted]"

var secrets struct {
	sync.Mutex
	list []string
}

// addSecret makes Redact hide s from now on.
func addSecret(s string) {
	if s == "" {
		return
	}
	secrets.Lock()
	defer secrets.Unlock()
	for _, known := range secrets.list {
		if known == s {
			return
		}
	}
	secrets.list = append(secrets.list, s)
}

// Redact returns s with every password dbtest knows of (those it generated
// and the one in GUARD_TEST_MYSQL_DSN) replaced by "[redacted]". Use it on
// anything built from a DSN before logging it or failing a test with it.
func Redact(s string) string {
	secrets.Lock()
	defer secrets.Unlock()
	for _, secret := range secrets.list {
		s = strings.ReplaceAll(s, secret, redactedText)
	}
	return s
}

// fatalf fails t with a message from which every password is removed.
func fatalf(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Fatal(Redact(fmt.Sprintf(format, args...)))
}

// randomHex returns n random bytes in hex, for names that must not collide
// between test binaries running at the same time.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: crypto/rand crashes the program instead
	return hex.EncodeToString(b)
}

// newPassword returns a random password of 26 characters from A-Z and 2-7
// (128 bits): printable and free of anything a DSN or an SQL string literal
// would need escaped. Redact hides it from then on.
func newPassword() string {
	pw := rand.Text()
	addSecret(pw)
	return pw
}
