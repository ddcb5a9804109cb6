// Package audit runs guard's schema rules against live servers: one database
// per target, many targets in parallel. It reads information_schema, the
// server version and both sql_mode scopes, optionally scans the rows for
// existing violations (GS010), and never lets a password reach its output.
package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Bounds guard puts on its own connections, whatever the DSN says: an
// unreachable host must fail fast, and a stuck read must not hang a fleet.
const (
	DialTimeout = 5 * time.Second
	IOTimeout   = 60 * time.Second
)

// EnvDSN names the environment variable read when no --dsn or --targets is given.
const EnvDSN = "GUARD_DSN"

// Target is one database on one server, parsed from a DSN.
type Target struct {
	cfg *mysql.Config
	// secrets are the password and the forms it was written in, for the redactor.
	secrets []string
}

// ErrNoDatabase is returned for a DSN that names no database: an audit reads
// the schema of one database per target.
var ErrNoDatabase = errors.New("the DSN names no database (add /DBNAME): guard audits one database per target")

// ParseDSN parses a DSN in go-sql-driver form (user:pass@tcp(host:3306)/db)
// or URL form (mysql://user:pass@host:3306/db?params). Its errors never
// contain the password.
func ParseDSN(dsn string) (*Target, error) {
	dsn = strings.TrimSpace(dsn)
	if dsn == "" {
		return nil, errors.New("empty DSN")
	}
	var cfg *mysql.Config
	var err error
	secrets := looseSecrets(dsn)
	if scheme, ok := urlScheme(dsn); ok {
		cfg, err = parseURL(dsn, scheme)
	} else {
		cfg, err = mysql.ParseDSN(dsn)
		if err != nil {
			err = fmt.Errorf("parse DSN: %w", err)
		}
	}
	if err != nil {
		return nil, errors.New(redactAll(err.Error(), secrets))
	}
	if cfg.DBName == "" {
		return nil, ErrNoDatabase
	}
	// Parsed, the password is known: the guesses would redact too much.
	secrets = nil
	if cfg.Passwd != "" {
		secrets = append(secrets, cfg.Passwd, url.QueryEscape(cfg.Passwd), url.PathEscape(cfg.Passwd),
			url.UserPassword("u", cfg.Passwd).String()[2:])
	}
	enforce(cfg)
	return &Target{cfg: cfg, secrets: uniqueSecrets(secrets)}, nil
}

// urlScheme recognises the URL form by its scheme.
func urlScheme(dsn string) (string, bool) {
	i := strings.Index(dsn, "://")
	if i <= 0 {
		return "", false
	}
	scheme := strings.ToLower(dsn[:i])
	switch scheme {
	case "mysql", "mariadb":
		return scheme, true
	}
	// Anything else with :// before the first @ is a URL of a scheme guard
	// does not speak; after it, :// may be part of a password.
	if at := strings.IndexByte(dsn, '@'); at < 0 || i < at {
		if strings.IndexFunc(scheme, func(r rune) bool { return !isSchemeRune(r) }) < 0 {
			return scheme, true
		}
	}
	return "", false
}

func isSchemeRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'
}

// parseURL converts mysql://user:pass@host:port/db?params to the driver's
// configuration; user and password are percent-decoded, the port defaults
// to 3306 and the parameters mean what they mean in the driver form.
func parseURL(dsn, scheme string) (*mysql.Config, error) {
	if scheme != "mysql" && scheme != "mariadb" {
		return nil, fmt.Errorf("unsupported DSN scheme %q (want mysql://)", scheme)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		// url.Parse's errors quote the URL or pieces of it (a "port" cut out
		// of a password holding a slash): none of it is printed.
		return nil, errors.New("parse DSN URL: malformed URL (percent-encode / ? # @ : in the user and password)")
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, errors.New("parse DSN URL: no host (want mysql://user:pass@host:3306/db)")
	}
	if u.Fragment != "" {
		return nil, errors.New("parse DSN URL: unexpected #fragment (percent-encode # in a password as %23)")
	}
	// The driver parses the parameters, so both forms accept the same ones.
	cfg, err := mysql.ParseDSN("/?" + u.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("parse DSN URL parameters: %w", err)
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	port := u.Port()
	if port == "" {
		port = "3306"
	}
	cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(u.Hostname(), port)
	db := strings.TrimPrefix(u.Path, "/")
	if strings.Contains(db, "/") {
		return nil, fmt.Errorf("parse DSN URL: database %q contains a slash", db)
	}
	cfg.DBName = db
	return cfg, nil
}

// enforce applies guard's own connection settings. sql_mode is left as the
// DSN has it: the audit reads the session mode the application's DSN gets.
func enforce(cfg *mysql.Config) {
	if cfg.Timeout <= 0 || cfg.Timeout > DialTimeout {
		cfg.Timeout = DialTimeout
	}
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

// Name returns host:port/db: how findings and errors name the target. It never
// holds credentials.
func (t *Target) Name() string { return t.cfg.Addr + "/" + t.cfg.DBName }

// Database returns the database the target names.
func (t *Target) Database() string { return t.cfg.DBName }

// Config returns a copy of the driver configuration guard connects with.
func (t *Target) Config() *mysql.Config { return t.cfg.Clone() }

// String is Name, so that printing a Target by mistake leaks nothing.
func (t *Target) String() string { return t.Name() }

// ReadTargets reads a targets file: one DSN per line; blank lines and lines
// starting with # are skipped. Errors name FILE:LINE.
func ReadTargets(file string) ([]*Target, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("targets file %s: %w", file, err)
	}
	return parseTargets(file, data)
}

func parseTargets(file string, data []byte) ([]*Target, error) {
	var out []*Target
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		t, err := ParseDSN(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("targets file %s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("targets file %s: no DSN in it", file)
	}
	return out, nil
}

// Sources says where the DSNs of an audit come from.
type Sources struct {
	DSNs        []string // --dsn, in order
	TargetsFile string   // --targets
	Env         string   // GUARD_DSN, used when neither of the above is given
}

// Collect parses every DSN of src, in order, dropping repeated targets. Errors
// name the source (--dsn #N, FILE:LINE, GUARD_DSN) and never the password.
func Collect(src Sources) ([]*Target, error) {
	var out []*Target
	for i, d := range src.DSNs {
		t, err := ParseDSN(d)
		if err != nil {
			return nil, fmt.Errorf("--dsn #%d: %w", i+1, err)
		}
		out = append(out, t)
	}
	if src.TargetsFile != "" {
		ts, err := ReadTargets(src.TargetsFile)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	if len(out) == 0 && strings.TrimSpace(src.Env) != "" {
		t, err := ParseDSN(src.Env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvDSN, err)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no target: give --dsn DSN, --targets FILE or set %s", EnvDSN)
	}
	// A target named twice is audited once; the secrets of both DSNs stay
	// known to the redactor.
	seen := map[string]*Target{}
	uniq := out[:0]
	for _, t := range out {
		if first := seen[t.Name()]; first != nil {
			first.secrets = uniqueSecrets(append(first.secrets, t.secrets...))
			continue
		}
		seen[t.Name()] = t
		uniq = append(uniq, t)
	}
	return uniq, nil
}
