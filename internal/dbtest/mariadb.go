package dbtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// mysqlAdvice ends the failure of a test that finds no MariaDB to use.
const mysqlAdvice = "install it with `apt-get install -y mariadb-server` (or set " + EnvMySQLDSN + ")"

// Bounds of a throwaway server's start.
const (
	mariadbReadyTimeout = 30 * time.Second
	startAttempts       = 5 // ports lost to another process before we give up
)

// passwordUser names the password account tests connect with on a throwaway
// server; on an existing server each database gets its own account instead,
// so that test binaries sharing it do not fight over one password.
const passwordUser = "guard"

// passwordUserHosts are the hosts the password accounts are created for: '%'
// for any client, and the loopback names explicitly so that an anonymous
// account on an existing server cannot shadow them.
var passwordUserHosts = []string{"%", "127.0.0.1", "localhost"}

// MariaDB is the server MySQL creates databases on: a throwaway mariadbd
// shared by the test binary, or the server named by GUARD_TEST_MYSQL_DSN.
// Settings changed through it (SET GLOBAL) are seen by every test of the
// binary: restore them in t.Cleanup.
type MariaDB struct {
	rootDSN  string
	root     *sql.DB
	userCfg  *mysql.Config // how password accounts connect; User, Passwd and DBName unset
	user     string        // the shared password account; empty on an existing server
	password string
	external bool
	private  bool // started by PrivateMySQL for one test
	version  string
	startup  time.Duration

	dir  string // throwaway server only
	proc *process
}

// RootDSN returns the DSN of an account allowed everything (root over the unix
// socket of a throwaway server), without a database.
func (s *MariaDB) RootDSN() string { return s.rootDSN }

// Root returns a connection pool on RootDSN shared by the whole test binary;
// do not close it.
func (s *MariaDB) Root() *sql.DB { return s.root }

// Addr returns where the password accounts connect: host:port, or the socket
// path when GUARD_TEST_MYSQL_DSN uses one.
func (s *MariaDB) Addr() string { return s.userCfg.Addr }

// External reports whether the server comes from GUARD_TEST_MYSQL_DSN.
func (s *MariaDB) External() bool { return s.external }

// Version returns SELECT VERSION(), e.g. "10.11.6-MariaDB-0+deb12u1".
func (s *MariaDB) Version() string { return s.version }

// StartupTime returns how long it took to get the server ready (data
// directory, start and accounts), or to connect to an existing one.
func (s *MariaDB) StartupTime() time.Duration { return s.startup }

// Exec runs stmts one by one as root and fails t on the first error.
func (s *MariaDB) Exec(t testing.TB, stmts ...string) {
	t.Helper()
	for _, stmt := range stmts {
		if _, err := s.root.Exec(stmt); err != nil {
			fatalf(t, "exec as root %q: %v", stmt, err)
		}
	}
}

var shared struct {
	once sync.Once
	srv  *MariaDB
	err  error
}

// sharedMariaDB starts (or connects to) the binary's server on first use.
// A failure is remembered: every later test fails with the same message
// instead of waiting for another start.
func sharedMariaDB() (*MariaDB, error) {
	shared.once.Do(func() {
		if dsn := os.Getenv(EnvMySQLDSN); dsn != "" {
			shared.srv, shared.err = connectMariaDB(dsn)
			return
		}
		shared.srv, shared.err = startMariaDB()
	})
	return shared.srv, shared.err
}

// connectMariaDB uses the existing server of a root-capable DSN.
func connectMariaDB(dsn string) (*MariaDB, error) {
	began := time.Now()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", EnvMySQLDSN, err)
	}
	addSecret(cfg.Passwd)
	root, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", EnvMySQLDSN, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), mariadbReadyTimeout)
	defer cancel()
	var version string
	if err := root.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		root.Close()
		return nil, fmt.Errorf("connect to %s (%s@%s): %w", EnvMySQLDSN, cfg.User, cfg.Addr, err)
	}
	registerCloser(func() { root.Close() })
	userCfg := cfg.Clone()
	userCfg.User, userCfg.Passwd, userCfg.DBName = "", "", ""
	userCfg.ParseTime, userCfg.MultiStatements = true, true
	return &MariaDB{
		rootDSN:  dsn,
		root:     root,
		userCfg:  userCfg,
		external: true,
		version:  version,
		startup:  time.Since(began),
	}, nil
}

// startMariaDB installs and starts a throwaway mariadbd and creates the
// password account on it.
func startMariaDB(extra ...string) (_ *MariaDB, err error) {
	began := time.Now()
	mariadbd, err := findBinary([]string{"mariadbd"}, []string{"/usr/sbin", "/usr/local/sbin"}, mysqlAdvice)
	if err != nil {
		return nil, err
	}
	installer, err := findBinary([]string{"mariadb-install-db", "mysql_install_db"}, []string{"/usr/bin", "/usr/local/bin"}, mysqlAdvice)
	if err != nil {
		return nil, err
	}
	osUser, err := currentUser()
	if err != nil {
		return nil, err
	}
	dir, err := newServerDir("mariadb")
	if err != nil {
		return nil, err
	}
	datadir := filepath.Join(dir, "data")
	inst := installation{installer: installer, mariadbd: mariadbd, osUser: osUser}
	template, err := inst.prepare(datadir)
	if err != nil {
		return nil, err
	}

	s := &MariaDB{dir: dir, user: passwordUser, password: newPassword()}
	defer func() {
		if err != nil && s.proc != nil {
			s.proc.kill()
		}
	}()
	socket := filepath.Join(dir, "mysql.sock")
	rootCfg := mysql.NewConfig()
	rootCfg.User = rootAccount(osUser)
	rootCfg.Net, rootCfg.Addr = "unix", socket
	rootCfg.ParseTime, rootCfg.MultiStatements = true, true
	rootCfg.Timeout = time.Second
	s.rootDSN = rootCfg.FormatDSN()

	var port int
	for attempt := 1; ; attempt++ {
		if port, err = freePort(); err != nil {
			return nil, err
		}
		s.proc, err = startProcess("mariadbd", mariadbd, append(mariadbdArgs(dir, socket, port, osUser), extra...), filepath.Join(dir, "mariadbd.out"))
		if err != nil {
			return nil, err
		}
		s.root, err = waitMariaDB(s.proc, s.rootDSN, filepath.Join(dir, "error.log"))
		if errors.Is(err, errAddrInUse) && attempt < startAttempts {
			continue
		}
		if err != nil && template != "" {
			return nil, fmt.Errorf("%w\n(the data directory is a copy of %s: remove it if it is damaged)", err, template)
		}
		if err != nil {
			return nil, err
		}
		break
	}
	registerCloser(func() { s.root.Close() })

	userCfg := mysql.NewConfig()
	userCfg.Net, userCfg.Addr = "tcp", loopback(port)
	userCfg.ParseTime, userCfg.MultiStatements = true, true
	s.userCfg = userCfg
	if err := createPasswordUser(s.root, s.user, s.password); err != nil {
		return nil, err
	}
	if err := s.root.QueryRow("SELECT VERSION()").Scan(&s.version); err != nil {
		return nil, fmt.Errorf("query mariadbd version: %w", err)
	}
	s.startup = time.Since(began)
	return s, nil
}

// mariadbdArgs returns the options of a throwaway server: loopback only,
// small, and fast rather than safe from a crash of the host since its data
// dies with the test — but for the redo log, flushed at each commit as
// guard audit's GS011 asks of every server, so that the audits of the
// tests are not all GS011 findings (the flush costs a fraction of a
// millisecond a commit here).
func mariadbdArgs(dir, socket string, port int, osUser string) []string {
	args := []string{
		"--no-defaults", // must come first: ignore /etc/mysql and ~/.my.cnf
		"--datadir=" + filepath.Join(dir, "data"),
		"--socket=" + socket,
		"--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--pid-file=" + filepath.Join(dir, "mariadbd.pid"),
		"--log-error=" + filepath.Join(dir, "error.log"),
		"--tmpdir=" + dir,
		"--skip-name-resolve",
		"--skip-log-bin",
		"--innodb-buffer-pool-size=64M",
		"--innodb-log-file-size=16M",
		"--innodb-flush-log-at-trx-commit=1",
		"--sync-binlog=0",
		"--innodb-doublewrite=0",
		// The data directory is deleted after the stop: skip the final flush.
		"--innodb-fast-shutdown=3",
		// Kernel AIO contexts are a shared, limited resource in containers.
		"--innodb-use-native-aio=0",
		// What distributions configure and MariaDB 11 defaults to, so that
		// introspected tables look like those of a real deployment.
		"--character-set-server=utf8mb4",
		"--collation-server=utf8mb4_general_ci",
	}
	if os.Geteuid() == 0 {
		// mariadbd refuses to run as root unless told to.
		args = append(args, "--user="+osUser)
	}
	return args
}

// waitMariaDB polls the server over its socket until it answers, returning a
// root pool; errAddrInUse when it could not bind its port.
func waitMariaDB(p *process, rootDSN, errorLog string) (*sql.DB, error) {
	root, err := sql.Open("mysql", rootDSN)
	if err != nil {
		return nil, fmt.Errorf("open mariadbd root connection: %w", err)
	}
	deadline := time.Now().Add(mariadbReadyTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = root.PingContext(ctx)
		cancel()
		if err == nil {
			return root, nil
		}
		if p.exited() {
			root.Close()
			tail := fileTail(errorLog, 20) + "\n" + p.logTail()
			if strings.Contains(tail, "Address already in use") {
				return nil, errAddrInUse
			}
			return nil, fmt.Errorf("mariadbd exited (%v); %s:\n%s", p.err, errorLog, tail)
		}
		if time.Now().After(deadline) {
			root.Close()
			return nil, fmt.Errorf("mariadbd not ready after %v: %v; %s:\n%s", mariadbReadyTimeout, err, errorLog, fileTail(errorLog, 20))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// createPasswordUser creates user on every host of passwordUserHosts with
// every privilege, so that tests connect over TCP with a password like an
// application does.
func createPasswordUser(root *sql.DB, user, password string) error {
	var accounts []string
	for _, host := range passwordUserHosts {
		accounts = append(accounts, quoteString(user)+"@"+quoteString(host))
	}
	for _, account := range accounts {
		stmt := "CREATE USER " + account + " IDENTIFIED BY " + quoteString(password)
		if _, err := root.Exec(stmt); err != nil {
			return fmt.Errorf("create user %s: %w", account, err)
		}
	}
	stmt := "GRANT ALL PRIVILEGES ON *.* TO " + strings.Join(accounts, ", ") + " WITH GRANT OPTION"
	if _, err := root.Exec(stmt); err != nil {
		return fmt.Errorf("grant privileges to %s: %w", user, err)
	}
	return nil
}

// dropPasswordUser removes the accounts createPasswordUser made.
func dropPasswordUser(root *sql.DB, user string) error {
	var accounts []string
	for _, host := range passwordUserHosts {
		accounts = append(accounts, quoteString(user)+"@"+quoteString(host))
	}
	if _, err := root.Exec("DROP USER IF EXISTS " + strings.Join(accounts, ", ")); err != nil {
		return fmt.Errorf("drop user %s: %w", user, err)
	}
	return nil
}

// currentUser returns the login name mariadbd runs as.
func currentUser() (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", fmt.Errorf("look up the current user: %w", err)
	}
	return u.Username, nil
}

// rootAccount returns the MariaDB account the OS user reaches over the socket:
// mariadb-install-db gives socket authentication to root and to the account
// named after --user, and only the OS root may use the root one.
func rootAccount(osUser string) string {
	if os.Geteuid() == 0 {
		return "root"
	}
	return osUser
}

// quoteString returns s as an SQL string literal.
func quoteString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// quoteIdent returns s as a quoted SQL identifier.
func quoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}
