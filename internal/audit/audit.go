// Package audit runs guard's schema rules against live servers: one database
// per target, many targets in parallel. It reads information_schema, the
// server version, both sql_mode scopes and how the server keeps commits and
// replicates (GS011, GS012, reported once per server), optionally scans the
// rows for existing violations (GS010), and never lets a password reach its
// output.
package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
)

// Defaults of Options.
const (
	DefaultTimeout     = 5 * time.Minute
	DefaultScanTimeout = 30 * time.Second
	DefaultParallel    = 4
)

// Options says how to audit.
type Options struct {
	Policy *policy.Policy // nil: the built-in defaults
	// Rules is the registry; the audit runs those of KindSchema, live or not.
	Rules []*lint.Rule
	// NoData skips the rules that scan rows (GS010): the audit reads the
	// schema, the version and sql_mode only.
	NoData bool
	// Timeout bounds the whole audit of one target; ScanTimeout each data scan.
	Timeout, ScanTimeout time.Duration
	// Parallel is how many targets are audited at once.
	Parallel int
	// Log receives the driver's own log lines; nil discards them. Run
	// redacts them.
	Log io.Writer
	// Done is called after each target, from the goroutine that audited it.
	Done func(*TargetResult)
	// Vocabulary, when set, returns the policy to audit a target's schema
	// with: guard audit PATH… infers it from the code as guard lint does,
	// against each target's own schema. observed is what the statements
	// the server ran show (Queries, with Learn), nil otherwise.
	Vocabulary func(s *schema.Schema, pol *policy.Policy, observed []lint.Observation) *policy.Policy
	// Learn observes the statements the server ran for Vocabulary, as
	// guard lint observes the code's.
	Learn *lint.Learner
	// Baseline, when set, hides the findings it records, matched on each
	// target by itself: one baseline serves every shard. Report.Result's
	// Baseline says what it hid.
	Baseline *lint.Baseline
	// Redis lists the Redis servers to audit besides the databases (guard
	// audit --redis), with the rules of KindRedis.
	Redis []*target.Redis
	// Queries runs the query rules on the statements each database's
	// server ran in it, as performance_schema's digests record them (guard
	// audit --queries); a server that records none fails its target.
	Queries bool
	// LockScanCap bounds the lock keys whose TTL the Redis audit reads.
	LockScanCap int
	// Sharding, when set, names the tables a sharded database spreads over
	// shards (guard audit --vschema): every target is judged as one shard.
	Sharding *lint.Sharding
}

func (o Options) withDefaults() Options {
	if o.Policy == nil {
		o.Policy = policy.Default()
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ScanTimeout <= 0 {
		o.ScanTimeout = DefaultScanTimeout
	}
	if o.Parallel <= 0 {
		o.Parallel = DefaultParallel
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.LockScanCap <= 0 {
		o.LockScanCap = DefaultLockScanCap
	}
	return o
}

// TargetResult is the outcome of auditing one target.
type TargetResult struct {
	// Target is host:port/db, or redis://host:port for a Redis server.
	Target string
	// Findings are sorted by table, code and column; Target is set on each.
	Findings []lint.Finding
	Tables   int
	// Statements counts the statement digests --queries judged.
	Statements int
	// Server is what @@version says; the zero Server when unreached.
	Server schema.Server
	// Queries counts the statements guard sent: introspection, sql_mode and
	// data scans.
	Queries int
	Elapsed time.Duration
	// Notes say what the audit could not see, such as tables hidden from an
	// account granted privileges on single tables.
	Notes []string
	// Err is why the target could not be audited; its text is redacted.
	Err error
	// Redis is what the audit of a Redis server read; nil for a database.
	Redis *lint.Redis
	// cluster lists the primaries of the Cluster a Redis server belongs
	// to, itself included; nil outside cluster mode.
	cluster []clusterNode
	// server is the host:port of a database target, which the findings
	// of the server as a whole (Rule.PerServer) name.
	server string
}

// AuditTarget connects to one target, reads its schema, version and
// sql_mode and runs the schema rules on them.
func AuditTarget(ctx context.Context, t *target.Target, opts Options) *TargetResult {
	opts = opts.withDefaults()
	began := time.Now()
	res := &TargetResult{Target: t.Name(), server: t.Config().Addr}
	err := auditTarget(ctx, t, opts, res)
	res.Elapsed = time.Since(began)
	if err != nil {
		res.Err = errors.New(target.NewRedactor(t).Redact(err.Error()))
		res.Findings = nil
	}
	return res
}

func auditTarget(ctx context.Context, t *target.Target, opts Options, res *TargetResult) error {
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	db, err := connectForAudit(ctx, t, opts)
	if err != nil {
		return err
	}
	defer db.Close()
	q := &countingQuerier{db: db}
	defer func() { res.Queries = int(q.n.Load()) }()

	sch, srv, err := readAuditedSchema(ctx, q, t, res)
	if err != nil {
		return err
	}
	live, err := readLive(ctx, q, t, srv, opts)
	if err != nil {
		return err
	}
	res.Notes = append(res.Notes, serverNotes(live)...)
	var ran *ranStatements
	if opts.Queries {
		if ran, err = readRan(ctx, q, t.Database(), srv.Flavor == schema.FlavorMariaDB, sch); err != nil {
			return err
		}
		res.Notes, res.Statements = append(res.Notes, ran.notes...), len(ran.digests)
	}
	found, err := judgeTarget(t, opts, sch, live, ran)
	if err != nil {
		return err
	}
	res.Findings = lint.Dedupe(found)
	lint.Order(res.Findings)
	return nil
}

// connectForAudit opens the one connection an audit of t runs on, with the
// read timeout and the parameter interpolation the audit's options need.
func connectForAudit(ctx context.Context, t *target.Target, opts Options) (*sql.DB, error) {
	return t.Connect(ctx, target.ConnectOptions{
		// One connection: the statements of an audit run one after the
		// other, and every one of them sees the same session.
		Conns: 1,
		Log:   opts.Log,
		Adjust: func(cfg *mysql.Config) {
			// A read timeout shorter than the scan bound would cut a scan the
			// server is about to stop cleanly, failing the target instead of
			// warning.
			if !opts.NoData && cfg.ReadTimeout < opts.ScanTimeout+5*time.Second {
				cfg.ReadTimeout = opts.ScanTimeout + 5*time.Second
			}
			// --queries counts the prepared statements the server ran, which
			// MariaDB keeps no digest of: guard's own send none. The driver
			// refuses to interpolate into multi-byte collations such as gbk's,
			// whose connections keep prepared statements.
			if opts.Queries && interpolationSafe(cfg.Collation) {
				cfg.InterpolateParams = true
			}
		},
	})
}

// readAuditedSchema reads t's schema and server into res, with a note for
// each part of the schema the account cannot see, so that a finding a
// narrow grant hides is not mistaken for a guard that holds. An empty
// schema is checked to be a database at all.
func readAuditedSchema(ctx context.Context, q *countingQuerier, t *target.Target, res *TargetResult) (*schema.Schema, schema.Server, error) {
	sch, srv, err := schema.FromInformationSchema(ctx, q, t.Database())
	if err != nil {
		return nil, srv, err
	}
	res.Server, res.Tables = srv, len(sch.Tables)
	if sch.GrantedTablesOnly {
		res.Notes = append(res.Notes, limitedViewNote(len(sch.Tables)))
	}
	for _, tb := range sch.Sorted() {
		if tb.ColumnsPartial {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: the account holds privileges on some of its columns only, "+
				"so its other columns, indexes and CHECK constraints are not seen: GS005, GS006 and GS009 skip it "+
				"and its counters are GS003 \"cannot tell\" (grant SELECT on %s)", tb.Name, tb.Name))
		}
	}
	if res.Tables == 0 {
		if err := databaseExists(ctx, q, t.Database()); err != nil {
			return nil, srv, err
		}
	}
	return sch, srv, nil
}

// readLive is what the schema rules know of the server beyond its schema:
// its version, whether it enforces CHECK, both sql_mode scopes, how it
// keeps commits and replicates (or what TiDB it is), how a scan is bounded
// there and, unless opts.NoData, the connection GS010 scans on.
func readLive(ctx context.Context, q *countingQuerier, t *target.Target, srv schema.Server, opts Options) (*lint.Live, error) {
	live := &lint.Live{
		Target:       t.Name(),
		Version:      srv.Version,
		EnforceCheck: srv.EnforcesCheck(),
		Context:      ctx,
		ScanTimeout:  opts.ScanTimeout,
		// MariaDB bounds a statement with max_statement_time; MySQL with the
		// MAX_EXECUTION_TIME hint.
		MaxStatementTime: srv.Flavor == schema.FlavorMariaDB,
	}
	if err := readModes(ctx, q, live, srv.Flavor); err != nil {
		return nil, err
	}
	rows, err := readServerRows(ctx, q, srv)
	if err != nil {
		return nil, err
	}
	applyServerRows(live, rows, t.Config().Addr)
	if !opts.NoData {
		live.Data = q
	}
	return live, nil
}

// judgeTarget runs the schema rules, and with --queries the query rules on
// the statements the server ran, under the vocabulary inferred against t's
// own schema. The findings are named by t, never by a file.
func judgeTarget(t *target.Target, opts Options, sch *schema.Schema, live *lint.Live, ran *ranStatements) ([]lint.Finding, error) {
	var found []lint.Finding
	report := func(f lint.Finding) {
		if !lint.Active(f) {
			return
		}
		// A finding of the server as a whole names it host:port.
		if f.Target == "" || f.File != "" {
			f.Target = t.Name()
		}
		f.File = ""
		found = append(found, f)
	}
	pol := opts.Policy
	if opts.Vocabulary != nil {
		var observed []lint.Observation
		if ran != nil {
			observed = ran.observe(opts.Learn, sch)
		}
		pol = opts.Vocabulary(sch, pol, observed)
	}
	for _, r := range opts.Rules {
		if r.Kind != lint.KindSchema {
			continue
		}
		pass := lint.NewPass(r, pol, sch, nil, nil, live, report)
		pass.Sharding = opts.Sharding
		if err := r.Run(pass); err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.Code, err)
		}
	}
	if ran != nil {
		if err := ran.judge(opts.Rules, pol, sch, live, report); err != nil {
			return nil, err
		}
	}
	return found, nil
}

// interpolationSafe reports whether the driver interpolates parameters on
// a connection of collation ("" is its default, utf8mb4).
func interpolationSafe(collation string) bool {
	for _, p := range []string{"utf8", "latin1", "ascii", "binary"} {
		if strings.HasPrefix(collation, p) {
			return true
		}
	}
	return collation == ""
}

// limitedViewNote says what an account granted privileges on single tables
// cannot see, given how many tables it saw: the tables it holds nothing on
// are missing from information_schema, so their findings are too.
func limitedViewNote(tables int) string {
	seen := fmt.Sprintf("%d tables", tables)
	if tables == 1 {
		seen = "1 table"
	}
	return "the account holds privileges on single tables only: it sees " + seen +
		", and tables it holds no privilege on are missing from the audit " +
		"(a full audit needs SELECT on the whole database: GRANT SELECT ON db.* TO …)"
}

// readModes reads the global and the session sql_mode, and on MariaDB both
// scopes of check_constraint_checks, in one statement. The session is the
// one the DSN's parameters give guard's connection, as they give the
// application's.
func readModes(ctx context.Context, q lint.Querier, live *lint.Live, flavor schema.Flavor) error {
	query := "SELECT @@GLOBAL.sql_mode, @@SESSION.sql_mode"
	mariadb := flavor == schema.FlavorMariaDB
	if mariadb {
		query += ", @@GLOBAL.check_constraint_checks, @@SESSION.check_constraint_checks"
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("read sql_mode: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read sql_mode: %w", err)
		}
		return errors.New("read sql_mode: no row")
	}
	var global, session, globalChecks, sessionChecks sql.NullString
	dest := []any{&global, &session}
	if mariadb {
		dest = append(dest, &globalChecks, &sessionChecks)
	}
	if err := rows.Scan(dest...); err != nil {
		return fmt.Errorf("read sql_mode: %w", err)
	}
	live.GlobalMode, live.SessionMode = global.String, session.String
	for _, scope := range []struct {
		name  string
		value sql.NullString
	}{{"global", globalChecks}, {"session", sessionChecks}} {
		if v := strings.ToUpper(scope.value.String); scope.value.Valid && (v == "0" || v == "OFF") {
			live.CheckChecksOff = append(live.CheckChecksOff, scope.name)
		}
	}
	return rows.Close()
}

// databaseExists tells an empty database from a missing one, which
// information_schema shows alike: an audit of a misspelt name must fail
// rather than report a clean schema.
func databaseExists(ctx context.Context, q lint.Querier, name string) error {
	rows, err := q.QueryContext(ctx, "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", name)
	if err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	defer rows.Close()
	n := 0
	if rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return fmt.Errorf("look up database %s: %w", name, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("database %s does not exist or is not visible to this account", name)
	}
	return nil
}

// countingQuerier counts the statements sent through it.
type countingQuerier struct {
	db *sql.DB
	n  atomic.Int64
}

func (c *countingQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.n.Add(1)
	return c.db.QueryContext(ctx, query, args...)
}
