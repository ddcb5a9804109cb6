// Package target is the one door of guard's live commands: it parses the
// DSNs and Redis addresses they are given, names each target without its
// credentials, redacts the parsed passwords from everything printed, and
// connects. A DSN that does not parse is described by the part that is wrong
// and its offset, never by its text: the text may hold a password.
package target

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
)

// Bounds guard puts on its own connections, whatever the DSN says: an
// unreachable host must fail fast, and a stuck read must not hang a fleet.
// DialTimeout is the default connect timeout (--connect-timeout): how long a
// server has to accept a connection and say its first word.
const (
	DialTimeout = 5 * time.Second
	IOTimeout   = 60 * time.Second
)

// EnvDSN names the environment variable read when no --dsn or --targets is given.
const EnvDSN = "GUARD_DSN"

// Target is one database on one server, parsed from a DSN.
type Target struct {
	cfg *mysql.Config
	// secrets are the password and the forms it is written in, for the redactor.
	secrets []string
	// connectTimeout is SetConnectTimeout's; 0 is DialTimeout.
	connectTimeout time.Duration
}

// SetConnectTimeout bounds how long the server has to accept a connection
// and send its greeting (d <= 0: DialTimeout). A shorter timeout= of the DSN
// still wins.
func (t *Target) SetConnectTimeout(d time.Duration) { t.connectTimeout = d }

// ErrNoDatabase is matched by the ParseError of a DSN that names no
// database: every live command works on one database per target.
var ErrNoDatabase = errors.New("no database")

// ParseError says why a DSN did not parse: what is wrong and at which
// character of the DSN. It holds no text of the DSN.
type ParseError struct {
	// Problem is one of guard's fixed descriptions.
	Problem string
	// Offset counts the characters (not bytes) before the place of the problem.
	Offset int
	// kind is ErrNoDatabase for a missing database name, else nil.
	kind error
	// redis marks the error of a Redis address.
	redis bool
}

func (e *ParseError) Error() string {
	what := "DSN"
	if e.redis {
		what = "Redis address"
	}
	return fmt.Sprintf("%s: %s (at offset %d)", what, e.Problem, e.Offset)
}

// Unwrap lets errors.Is match ErrNoDatabase.
func (e *ParseError) Unwrap() error { return e.kind }

// The problems a ParseError describes. Each is fixed text: none is built
// from the DSN.
const (
	probEmpty         = "empty"
	probNoDBAfterAddr = `no "/dbname" after the address`
	probNoSlash       = `no "/dbname" (want user:pass@tcp(host:3306)/dbname)`
	probEmptyDB       = `no database name after "/"`
	probUnclosed      = `"(" of the address is not closed by ")" before "/dbname"`
	probAddrTail      = `unexpected text between ")" of the address and "/dbname"`
	probNet           = `the address is not tcp(host:port) or unix(path)`
	probLateSlash     = `a "/" in the database name or the parameters must be percent-encoded (%2F)`
	probDBAt          = `"@" in the database name: a password holding "/" needs "/dbname" after the address`
	probDBEscape      = `bad percent-escape in the database name`
	probParam         = `invalid parameter value`
	probParams        = `the parameters are not valid together (tls, collation, interpolateParams)`
	probScheme        = `unsupported scheme (want mysql:// or user:pass@tcp(host:3306)/dbname)`
	probURLRaw        = `a "/", "?" or "#" in the user or password must be percent-encoded (%2F, %3F, %23)`
	probUserEscape    = `bad percent-escape in the user`
	probPassEscape    = `bad percent-escape in the password`
	probNoHost        = `no host (want mysql://user:pass@host:3306/dbname)`
	probHost          = `invalid host`
	probPort          = `the port is not a number from 1 to 65535`
	probDBSlash       = `"/" in the database name`
	probFragment      = `"#" starts a URL fragment: percent-encode it as %23`
)

// Problems lists every description a ParseError may carry, for tests that
// prove no text of a DSN reaches an error.
func Problems() []string {
	return []string{probEmpty, probNoDBAfterAddr, probNoSlash, probEmptyDB, probUnclosed, probAddrTail, probLateSlash, probNet,
		probDBAt, probDBEscape, probParam, probParams, probScheme, probURLRaw, probUserEscape, probPassEscape,
		probNoHost, probHost, probPort, probDBSlash, probFragment,
		probRedisForm, probRedisDB, probRedisName, probRedisOpts}
}

// noDatabase is the ParseError of a DSN without a database name.
func noDatabase(s string, off int, problem string) *ParseError {
	e := failAt(s, off, problem)
	e.kind = ErrNoDatabase
	return e
}

// failAt returns the ParseError of problem at byte offset off of s.
func failAt(s string, off int, problem string) *ParseError {
	off = min(max(off, 0), len(s))
	return &ParseError{Problem: problem, Offset: utf8.RuneCountInString(s[:off])}
}

// Parse parses a DSN in go-sql-driver form (user:pass@tcp(host:3306)/db)
// or URL form (mysql://user:pass@host:3306/db?params, user and password
// percent-encoded). Its errors are *ParseError.
func Parse(dsn string) (*Target, error) {
	// Offsets count from the DSN as given, leading blanks included.
	lead := len(dsn) - len(strings.TrimLeft(dsn, " \t\r\n"))
	s := strings.TrimSpace(dsn)
	if s == "" {
		return nil, failAt(dsn, len(dsn), probEmpty)
	}
	var (
		cfg     *mysql.Config
		secrets []string
		perr    *ParseError
	)
	switch scheme, ok := urlScheme(s); {
	case ok && (scheme == "mysql" || scheme == "mariadb"):
		cfg, secrets, perr = parseURL(s)
	case ok:
		// user://… is also a driver-form DSN whose password starts with
		// "//"; only when it is not is it a URL of a scheme guard lacks.
		if cfg, secrets, perr = parseDriver(s); perr != nil {
			perr = failAt(s, 0, probScheme)
		}
	default:
		cfg, secrets, perr = parseDriver(s)
	}
	if perr != nil {
		perr.Offset += utf8.RuneCountInString(dsn[:lead])
		return nil, perr
	}
	if cfg.Passwd != "" {
		secrets = append(secrets, cfg.Passwd, url.QueryEscape(cfg.Passwd), url.PathEscape(cfg.Passwd),
			url.UserPassword("u", cfg.Passwd).String()[2:])
	}
	enforce(cfg)
	return &Target{cfg: cfg, secrets: uniqueSecrets(secrets)}, nil
}

// urlScheme returns the scheme of a DSN in URL form, lower-cased: letters,
// digits and +-. before "://" and before any "@" (in the driver form a
// "://" after the user's colon would start a password).
func urlScheme(s string) (string, bool) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return "", false
	}
	if at := strings.IndexByte(s, '@'); at >= 0 && at < i {
		return "", false
	}
	for _, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return "", false
		}
	}
	return strings.ToLower(s[:i]), true
}

// knownNets are the networks of the driver form guard connects over; the
// driver knows no others unless a program registers a dialer.
var knownNets = map[string]bool{"": true, "tcp": true, "tcp4": true, "tcp6": true, "unix": true}

// parseDriver splits user[:password]@net(addr)/db?params as the driver
// does (the last "/" ends the address, the last "@" before it ends the
// password, the first ":" ends the user), so that a DSN guard accepts means
// what it means to the application. A split the driver would accept but
// that cannot be meant (a password holding "/" with no "/dbname" after the
// address) is refused.
func parseDriver(s string) (*mysql.Config, []string, *ParseError) {
	slash := strings.LastIndexByte(s, '/')
	if slash < 0 {
		return nil, nil, diagnoseDriver(s)
	}
	// An address after the last "/": the "/" was in the password.
	if a, ok := lastAddress(s); ok && a.open > slash {
		return nil, nil, diagnoseDriver(s)
	}
	left := s[:slash]
	at := strings.LastIndexByte(left, '@')
	netAddr := left[at+1:]
	netName, addr := netAddr, ""
	if p := strings.IndexByte(netAddr, '('); p >= 0 {
		if !strings.HasSuffix(netAddr, ")") {
			return nil, nil, diagnoseDriver(s)
		}
		netName, addr = netAddr[:p], netAddr[p+1:len(netAddr)-1]
	}
	if !knownNets[netName] || strings.ContainsAny(addr, "()") {
		return nil, nil, diagnoseDriver(s)
	}
	var user, pass string
	if at >= 0 {
		user, pass, _ = strings.Cut(left[:at], ":")
	}
	dbStart := slash + 1
	db, query, _ := strings.Cut(s[dbStart:], "?")
	if db == "" {
		return nil, nil, noDatabase(s, dbStart, probEmptyDB)
	}
	if i := strings.IndexByte(db, '@'); i >= 0 {
		return nil, nil, failAt(s, dbStart+i, probDBAt)
	}
	if i := badEscape(db); i >= 0 {
		return nil, nil, failAt(s, dbStart+i, probDBEscape)
	}
	queryStart := dbStart + len(db) + 1
	if perr := checkParams(s, query, queryStart); perr != nil {
		return nil, nil, perr
	}
	// The parts are sound: the driver reads them again, credentials left
	// out, for its defaults and its checks across parameters.
	cfg, err := mysql.ParseDSN(netAddr + "/" + s[dbStart:])
	if err != nil {
		return nil, nil, failAt(s, queryStart, probParams)
	}
	cfg.User, cfg.Passwd = user, pass
	return cfg, nil, nil
}

// address is the place of an "@net(addr)" group in a driver-form DSN.
type address struct {
	open  int // index of "("
	close int // index of ")", -1 when it is not closed
}

// lastAddress finds the last "@net(" with a network guard knows.
func lastAddress(s string) (address, bool) {
	for at := strings.LastIndexByte(s, '@'); at >= 0; at = strings.LastIndexByte(s[:at], '@') {
		rest := s[at+1:]
		p := strings.IndexByte(rest, '(')
		if p < 0 || !knownNets[rest[:p]] {
			continue
		}
		a := address{open: at + 1 + p, close: -1}
		if c := strings.IndexByte(rest[p:], ')'); c >= 0 {
			a.close = at + 1 + p + c
		}
		return a, true
	}
	return address{}, false
}

// diagnoseDriver describes a driver-form DSN that does not split, from its
// address outwards: the address is what is least likely to be mistaken for
// part of a password.
func diagnoseDriver(s string) *ParseError {
	a, ok := lastAddress(s)
	if !ok {
		if !strings.Contains(s, "/") {
			return noDatabase(s, len(s), probNoSlash)
		}
		at := strings.LastIndexByte(s[:strings.LastIndexByte(s, '/')], '@')
		return failAt(s, at+1, probNet)
	}
	if a.close < 0 {
		return failAt(s, a.open, probUnclosed)
	}
	after := a.close + 1
	switch {
	case after == len(s):
		return noDatabase(s, after, probNoDBAfterAddr)
	case s[after] != '/':
		if !strings.Contains(s[after:], "/") {
			return noDatabase(s, after, probNoDBAfterAddr)
		}
		return failAt(s, after, probAddrTail)
	}
	// The address is well formed and "/" follows it: either a later "/"
	// made the driver end the address there, or the address itself holds
	// a "(" or ")".
	if last := strings.LastIndexByte(s, '/'); last > after {
		return failAt(s, last, probLateSlash)
	}
	return failAt(s, a.open+1, probNet)
}

// checkParams has the driver read query (key=value&…) one parameter at a
// time, so that a bad one is told by its offset. The driver's own messages
// quote the value and are not used.
func checkParams(s, query string, start int) *ParseError {
	if query == "" {
		return nil
	}
	off := start
	for _, kv := range strings.Split(query, "&") {
		if _, _, ok := strings.Cut(kv, "="); ok {
			if _, err := mysql.ParseDSN("/?" + kv); err != nil {
				return failAt(s, off+strings.IndexByte(kv, '=')+1, probParam)
			}
		}
		off += len(kv) + 1
	}
	return nil
}

// parseURL splits scheme://user:pass@host:port/db?params#fragment by hand:
// url.Parse's errors quote the text they stumble on, a password included.
func parseURL(s string) (*mysql.Config, []string, *ParseError) {
	u, perr := splitURL(s, strings.Index(s, "://")+3, false)
	if perr != nil {
		return nil, nil, perr
	}
	if u.port == "" {
		u.port = "3306"
	}
	if u.path == "" || u.path == "/" {
		return nil, nil, noDatabase(s, u.pathAt, probNoDBAfterAddr)
	}
	db := u.path[1:]
	if j := strings.IndexByte(db, '/'); j >= 0 {
		return nil, nil, failAt(s, u.pathAt+1+j, probDBSlash)
	}
	if j := badEscape(db); j >= 0 {
		return nil, nil, failAt(s, u.pathAt+1+j, probDBEscape)
	}
	if perr := checkParams(s, u.query, u.queryAt+1); perr != nil {
		return nil, nil, perr
	}
	// The driver reads the parameters, so both forms accept the same ones.
	cfg, err := mysql.ParseDSN("/?" + u.query)
	if err != nil {
		return nil, nil, failAt(s, u.queryAt+1, probParams)
	}
	cfg.User, cfg.Passwd = u.user, u.pass
	cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(u.host, u.port)
	cfg.DBName, _ = url.PathUnescape(db)
	var secrets []string
	if u.rawPass != "" {
		secrets = append(secrets, u.rawPass)
	}
	return cfg, secrets, nil
}

// urlParts are the pieces of a URL, decoded, with the offsets of the path
// and the query for errors.
type urlParts struct {
	user, pass, rawPass string
	host, port          string
	hosts               []string // every host:port of a list, when allowed
	path, query         string
	pathAt, queryAt     int
}

// splitURL splits s after the "://" ending at authStart. The authority ends
// at the first "/", "?" or "#", as RFC 3986 has it; a password must
// percent-encode them.
func splitURL(s string, authStart int, multiHost bool) (*urlParts, *ParseError) {
	u := &urlParts{}
	authEnd := len(s)
	if j := strings.IndexAny(s[authStart:], "/?#"); j >= 0 {
		authEnd = authStart + j
	}
	// An "@" after the authority: a raw "/", "?" or "#" ended it inside
	// the user or password, and what follows the "@" is the real host.
	if strings.Contains(s[authEnd:], "@") {
		return nil, failAt(s, authEnd, probURLRaw)
	}
	auth := s[authStart:authEnd]
	hostAt := authStart
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		hostAt = authStart + at + 1
		if err := u.readUserInfo(s, authStart, auth[:at]); err != nil {
			return nil, err
		}
	}
	hostPort := s[hostAt:authEnd]
	if hostPort == "" {
		return nil, failAt(s, hostAt, probNoHost)
	}
	if multiHost {
		if err := u.readHosts(s, hostPort, hostAt); err != nil {
			return nil, err
		}
		hostPort = u.hosts[0]
	}
	host, port, err := splitURLHost(s, hostPort, hostAt)
	if err != nil {
		return nil, err
	}
	u.host, u.port = host, port
	rest := s[authEnd:]
	if j := strings.IndexByte(rest, '#'); j >= 0 {
		return nil, failAt(s, authEnd+j, probFragment)
	}
	u.pathAt = authEnd
	path, query, _ := strings.Cut(rest, "?")
	u.path, u.query = path, query
	u.queryAt = authEnd + len(path)
	return u, nil
}

// readUserInfo reads the user and password of info, the authority's part
// before its "@" starting at authStart in s. Each must be percent-encoded
// whole: a bad escape is an error at its place, never a password quietly
// decoded into another one.
func (u *urlParts) readUserInfo(s string, authStart int, info string) *ParseError {
	user, pass, _ := strings.Cut(info, ":")
	if j := badEscape(user); j >= 0 {
		return failAt(s, authStart+j, probUserEscape)
	}
	passAt := authStart + len(user) + 1
	if j := badEscape(pass); j >= 0 {
		return failAt(s, passAt+j, probPassEscape)
	}
	u.user, _ = url.PathUnescape(user)
	u.pass, _ = url.PathUnescape(pass)
	u.rawPass = pass
	return nil
}

// readHosts reads a list host:port,host:port starting at hostAt in s, where
// the scheme allows several hosts: each must be whole, and an error points
// at the one that is not.
func (u *urlParts) readHosts(s, hostPort string, hostAt int) *ParseError {
	off := hostAt
	for _, hp := range strings.Split(hostPort, ",") {
		if _, _, err := net.SplitHostPort(hp); err != nil || !validHostPort(hp) {
			return failAt(s, off, probHost)
		}
		u.hosts = append(u.hosts, hp)
		off += len(hp) + 1
	}
	return nil
}

// splitURLHost splits hostPort, starting at hostAt in s, into its host (an
// IPv6 address without its brackets) and its port, "" when absent. It checks
// each by itself so that an error points at the character that is wrong,
// where net.SplitHostPort would only say the whole is.
func splitURLHost(s, hostPort string, hostAt int) (host, port string, err *ParseError) {
	host = hostPort
	if strings.HasPrefix(hostPort, "[") {
		end := strings.IndexByte(hostPort, ']')
		if end < 0 {
			return "", "", failAt(s, hostAt, probHost)
		}
		host = hostPort[1:end]
		rest := hostPort[end+1:]
		if rest != "" {
			if rest[0] != ':' {
				return "", "", failAt(s, hostAt+end+1, probHost)
			}
			port = rest[1:]
			if port == "" {
				return "", "", failAt(s, hostAt+end+2, probPort)
			}
		}
	} else if c := strings.LastIndexByte(hostPort, ':'); c >= 0 {
		host, port = hostPort[:c], hostPort[c+1:]
		if port == "" {
			return "", "", failAt(s, hostAt+c+1, probPort)
		}
	}
	if host == "" {
		return "", "", failAt(s, hostAt, probNoHost)
	}
	if j := strings.IndexAny(host, "@:[]%/?# "); j >= 0 && !strings.HasPrefix(hostPort, "[") {
		return "", "", failAt(s, hostAt+j, probHost)
	}
	if port != "" && !validPort(port) {
		return "", "", failAt(s, hostAt+len(hostPort)-len(port), probPort)
	}
	return host, port, nil
}

// validHostPort reports whether hp is host or host:port with a numeric port.
func validHostPort(hp string) bool {
	if hp == "" {
		return false
	}
	if h, p, err := net.SplitHostPort(hp); err == nil {
		return h != "" && validPort(p)
	}
	return !strings.ContainsAny(hp, ":@[]")
}

func validPort(p string) bool {
	if p == "" || len(p) > 5 {
		return false
	}
	n := 0
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
		n = n*10 + int(r-'0')
	}
	return n >= 1 && n <= 65535
}

// badEscape returns the index of the first "%" of s not followed by two hex
// digits, or -1.
func badEscape(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			return i
		}
	}
	return -1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// enforce applies guard's own connection settings. sql_mode is left as the
// DSN has it: an audit reads the session mode the application's DSN gets.
func enforce(cfg *mysql.Config) {
	// cfg.Timeout, the DSN's timeout=, is left for Config: the connect
	// timeout may be set after parsing.
	if cfg.ReadTimeout <= 0 || cfg.ReadTimeout > IOTimeout {
		cfg.ReadTimeout = IOTimeout
	}
	if cfg.WriteTimeout <= 0 || cfg.WriteTimeout > IOTimeout {
		cfg.WriteTimeout = IOTimeout
	}
	cfg.ParseTime = true
	// guard sends one statement at a time, never user text; nothing needs these.
	cfg.MultiStatements = false
	cfg.AllowAllFiles = false
}

// Name returns host:port/db: how findings and errors name the target. It
// never holds credentials.
func (t *Target) Name() string { return t.cfg.Addr + "/" + t.cfg.DBName }

// Database returns the database the target names.
func (t *Target) Database() string { return t.cfg.DBName }

// Config returns a copy of the driver configuration guard connects with.
// Its connections are made within the connect timeout (a shorter timeout=
// of the DSN wins), greeting included: a server that does not answer in
// time fails the connection with a *NoAnswerError.
func (t *Target) Config() *mysql.Config {
	cfg := t.cfg.Clone()
	cfg.Timeout = t.connectTimeoutOf()
	cfg.DialFunc = mysqlDialer(cfg.Timeout)
	return cfg
}

// connectTimeoutOf is the connect timeout of t's connections.
func (t *Target) connectTimeoutOf() time.Duration {
	d := t.connectTimeout
	if d <= 0 {
		d = DialTimeout
	}
	if dsn := t.cfg.Timeout; dsn > 0 && dsn < d {
		d = dsn
	}
	return d
}

// String is Name, so that printing a Target by mistake leaks nothing.
func (t *Target) String() string { return t.Name() }
