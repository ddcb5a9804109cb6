package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/audit"
	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// auditDescription is the help text of guard audit, apart from the command
// as migrateDescription is, so that its flags are not lost below it.
const auditDescription = `Connects to each target (one database per DSN), reads its schema from
information_schema, its version and its global and session sql_mode, and runs
every schema rule on them, GS001 and GS002 included. GS010 then scans the rows
for negative counters and duplicate business keys, each scan bounded by
--scan-timeout on the server; --no-data skips it.

GS011 and GS012 judge how each server keeps the commits it acknowledges and
fails over (innodb_flush_log_at_trx_commit, sync_binlog, binlog_format,
read_only on replicas, semi-synchronous replication, GTID), read with the
privileges an auditor has: a refused question is an info finding "cannot
tell". They name the server, host:port, and a fleet reports each once per
server with the number of databases that share it. TiDB is recognised: GS002
says when it enforces no CHECK (tidb_enable_check_constraint) and how its
transaction mode makes the conditional UPDATE hold.

DSN: user:pass@tcp(host:3306)/db or mysql://user:pass@host:3306/db?params,
from --dsn (repeatable), --targets FILE (one DSN per line, # comments) or the
GUARD_DSN environment variable. Findings name their target host:port/db;
passwords never appear in any output.

With PATH... (code, as guard lint reads it), the vocabulary is inferred from
how that code uses each column, against each target's own schema: counters,
state machines, flags and owned business keys, as guard lint and guard plan
infer them; with --queries, from the statements each server ran as well.
Without either the policy alone decides.

--redis ADDR (repeatable) audits how a Redis server keeps locks (GR001-GR005):
maxmemory and its eviction policy, persistence (appendonly, appendfsync,
save), min-replicas-to-write on a primary with replicas, and the TTLs of the
keys matching [lock] key_pattern (default lock:*), read with a bounded SCAN
(at most 10,000 keys, said when hit). ADDR is host:port,
redis://[user:pass@]host:port[/db], rediss://… (TLS) or
sentinel://[:pass@]host:port[,host:port…]/mastername, whose current primary is
audited and whose replicas are listed with their lag. A host:port or redis://
address of a Redis Cluster node is a seed: every primary of the Cluster is
audited (CLUSTER NODES), each under its own name. Where CONFIG is renamed or
denied (managed Redis), an info finding says which check could not run.
Findings name redis://host:port; --redis works without --dsn too.

--queries also runs the query rules (GQ001-GQ011) on the statements the
server ran in each target's database, as
performance_schema.events_statements_summary_by_digest records them (MySQL 8,
MariaDB 10.5+), against the live schema and with the same policy and
vocabulary. Findings carry the digest, how often the statement ran and when
it ran first and last. A digest cut at performance_schema_max_digest_length,
or one guard cannot parse, is GQ009 for a write. A server whose
performance_schema is OFF (set performance_schema=ON under [mysqld] in my.cnf
and restart), or an account without SELECT on it, fails its target.

The same host:port/db given twice (say with two passwords) is refused.
Targets are audited --parallel at a time. A target that cannot be reached or
read is reported on stderr (and under "failures" in json) and makes the exit
code 3; the other targets are still audited and reported.

Examples:
   GUARD_DSN='auditor:secret@tcp(db1:3306)/shop' guard audit
   guard audit --dsn 'mysql://auditor:s%40cret@db1:3306/shop'
   guard audit --targets shards.txt --parallel 8 --format json > audit.json
   guard audit --targets shards.txt --no-data --format sarif > audit.sarif
   guard audit --targets shards.txt --format markdown > audit.md   # for guard report comment
   guard audit --targets shards.txt --no-data --format html > fleet.html
   guard audit --dsn "$DSN" src/ mappers/          vocabulary inferred from the code
   guard audit --dsn "$DSN" --queries              also the statements the server ran
   guard audit --targets shards.txt --write-baseline audit-baseline.json
   guard audit --targets shards.txt --baseline audit-baseline.json
   guard audit --dsn "$DSN" --redis 'redis://:s3cret@cache1:6379/0'
   guard audit --redis sentinel://sentinel1:26379/mymaster
   guard audit --redis cluster-node1:6379                every primary of the Cluster

A baseline's fingerprints hold no host, port or database: one baseline
recorded on a shard, or on the whole fleet, serves every shard, each matched
by itself. A baseline is not written when a target could not be audited.`

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:        "audit",
		Usage:       "audit live servers: schema, sql_mode, version and existing bad rows; how Redis keeps locks",
		ArgsUsage:   "[PATH...]",
		Description: auditDescription,
		Flags: append(reportFlags.flags(),
			&cli.GenericFlag{Name: "dsn", Value: &dsnList{}, Usage: "target DSN (repeatable); default $" + target.EnvDSN},
			&cli.GenericFlag{Name: "redis", Value: &dsnList{}, Usage: "Redis server to audit: host:port (a Cluster node: every primary), redis://, rediss:// or sentinel://host:port/master (repeatable)"},
			&cli.StringFlag{Name: "targets", Usage: "file with one DSN per line (# comments, blank lines ignored)", TakesFile: true},
			&cli.IntFlag{Name: "parallel", Value: audit.DefaultParallel, Usage: "targets audited at once"},
			&cli.BoolFlag{Name: "queries", Usage: "also run the query rules on the statements each server ran in its database (performance_schema digests)"},
			&cli.BoolFlag{Name: "no-data", Usage: "skip the row scans (GS010): schema, version and sql_mode only"},
			&cli.DurationFlag{Name: "timeout", Value: audit.DefaultTimeout, Usage: "bound on the whole audit of one target"},
			&cli.DurationFlag{Name: "scan-timeout", Value: audit.DefaultScanTimeout, Usage: "bound on each row scan, enforced by the server"},
			connectTimeoutFlag(),
			&cli.StringFlag{Name: "baseline", Usage: "hide the findings recorded in this baseline file, on every target", TakesFile: true},
			&cli.StringFlag{Name: "write-baseline", Usage: "record the findings in this baseline file instead of reporting them, and exit 0", TakesFile: true},
			vschemaFlag(),
		),
		Action: runAudit,
	}
}

// dsnList collects --dsn values as given: a DSN may hold commas
// (sql_mode='A,B'), which a slice flag would split.
type dsnList struct{ dsns []string }

func (l *dsnList) Set(v string) error { l.dsns = append(l.dsns, v); return nil }

// String never prints the DSNs: help and errors must not show passwords.
func (l *dsnList) String() string { return "" }

func runAudit(c *cli.Context) error {
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	vocabulary, err := auditVocabulary(pol, c.Args().Slice(), c.Bool("queries"))
	if err != nil {
		return err
	}
	format, rank := c.String("format"), failRank(c)
	if err := checkAuditBounds(c); err != nil {
		return err
	}
	targets, redisServers, red, err := auditTargets(c)
	if err != nil {
		return err
	}
	stdout, stderr := red.Writer(c.App.Writer), red.Writer(c.App.ErrWriter)

	write := c.String("write-baseline")
	if write != "" && c.IsSet("baseline") {
		return inputErrf("--write-baseline records every finding: it does not go with --baseline")
	}
	baseline, err := readBaseline(c)
	if err != nil {
		return err
	}
	shards, err := sharding(c)
	if err != nil {
		return err
	}
	opts := audit.Options{
		Sharding:    shards,
		Baseline:    baseline,
		Policy:      pol,
		Rules:       rules.All(),
		NoData:      c.Bool("no-data"),
		Timeout:     c.Duration("timeout"),
		ScanTimeout: c.Duration("scan-timeout"),
		Parallel:    c.Int("parallel"),
		Log:         stderr,
		Vocabulary:  vocabulary,
		Learn:       rules.Learn,
		Redis:       redisServers,
		Queries:     c.Bool("queries"),
	}
	rep := runAuditWithProgress(c, stderr, targets, opts)
	printAuditNotes(stderr, rep)

	if write != "" {
		if len(rep.Failures) > 0 {
			return fmt.Errorf("baseline %s not written: %d target(s) could not be audited", write, len(rep.Failures))
		}
		return writeBaseline(c, write, rep.Result.Findings)
	}
	noteBaseline(c, rep.Result.Baseline)
	if err := writeAuditReport(c, stdout, format, rep); err != nil {
		return err
	}
	if len(rep.Failures) > 0 {
		// A target not audited is a runtime failure, whatever the others found.
		return &exitError{code: exitRuntime}
	}
	for _, f := range rep.Result.Findings {
		if f.Severity.Rank() >= rank {
			return &exitError{code: exitFindings}
		}
	}
	return nil
}

// checkAuditBounds refuses a --parallel, --timeout or --scan-timeout no
// audit could run with, before any target is read.
func checkAuditBounds(c *cli.Context) error {
	if parallel := c.Int("parallel"); parallel < 1 {
		return inputErrf("--parallel %d: want 1 or more", parallel)
	}
	for _, name := range []string{"timeout", "scan-timeout", "connect-timeout"} {
		if c.Duration(name) <= 0 {
			return inputErrf("--%s %s: want a positive duration", name, c.Duration(name))
		}
	}
	return nil
}

// auditTargets reads the databases (--dsn, --targets, else $GUARD_DSN) and
// the Redis servers (--redis) of the audit, and returns them with the one
// redactor of all their passwords that every message and writer of the
// audit goes through. --redis alone audits Redis alone.
func auditTargets(c *cli.Context) ([]*target.Target, []*target.Redis, *target.Redactor, error) {
	var dsns []string
	if l, ok := c.Generic("dsn").(*dsnList); ok {
		dsns = l.dsns
	}
	redisServers, err := redisTargets(c)
	if err != nil {
		return nil, nil, nil, err
	}
	src := target.Sources{DSNs: dsns, TargetsFile: c.String("targets"), Env: os.Getenv(target.EnvDSN)}
	var targets []*target.Target
	databases := len(dsns) > 0 || src.TargetsFile != "" || strings.TrimSpace(src.Env) != ""
	if !databases && len(redisServers) == 0 {
		return nil, nil, nil, inputErrf("no target: give --dsn DSN, --targets FILE, --redis ADDR or set %s", target.EnvDSN)
	}
	if databases {
		if targets, err = target.Collect(src); err != nil {
			return nil, nil, nil, inputErr(err)
		}
	}
	for _, t := range targets {
		t.SetConnectTimeout(c.Duration("connect-timeout"))
	}
	for _, r := range redisServers {
		r.SetConnectTimeout(c.Duration("connect-timeout"))
	}
	return targets, redisServers, audit.Redactor(targets, redisServers), nil
}

// runAuditWithProgress runs the audit, with a progress bar on stderr
// when it is a terminal: a fleet may take minutes.
func runAuditWithProgress(c *cli.Context, stderr io.Writer, targets []*target.Target, opts audit.Options) *audit.Report {
	var bar *audit.Progress
	if audit.ShowProgress(c.App.ErrWriter) {
		bar = audit.NewProgress(stderr, len(targets)+len(opts.Redis))
		opts.Done = func(*audit.TargetResult) { bar.Done() }
	}
	rep := audit.Run(c.Context, targets, opts)
	if bar != nil {
		bar.Stop()
	}
	return rep
}

// printAuditNotes tells stderr, whatever the format of stdout, which
// targets failed, what the audit could not see, and what each Redis server
// is.
func printAuditNotes(stderr io.Writer, rep *audit.Report) {
	for _, f := range rep.Failures {
		fmt.Fprintf(stderr, "guard: %s: %s\n", f.Target, f.Error)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(stderr, "guard: warning: %s: %s\n", n.Target, n.Message)
	}
	for _, r := range rep.Redis {
		fmt.Fprintf(stderr, "guard: %s: %s\n", r.Target, r.Summary)
	}
}

// writeAuditReport writes the findings in format, with what json and
// sarif carry of the live run: the failures and the Redis servers.
func writeAuditReport(c *cli.Context, stdout io.Writer, format string, rep *audit.Report) error {
	live := &report.Live{Audited: len(rep.Targets) - len(rep.Failures)}
	for _, f := range rep.Failures {
		live.Failures = append(live.Failures, report.Failure{Target: f.Target, Error: f.Error})
	}
	if len(rep.Redis) > 0 {
		live.Redis = rep.Redis
	}
	for _, t := range rep.Targets {
		lt := report.LiveTarget{Name: t.Target, Server: t.ServerAddr()}
		if t.Err == nil && t.Server.Version != "" {
			lt.Version = t.Server.String()
		}
		live.Targets = append(live.Targets, lt)
	}
	opts := report.Options{
		Version: guardVersion(),
		Color:   format == "text" && useColor(c, c.App.Writer),
		Rules:   ruleInfos(),
		Live:    live,
	}
	if format == report.FormatHTML {
		opts.Generated = time.Now()
	}
	return report.Write(stdout, format, rep.Result, opts)
}

// auditVocabulary reads the code below paths, when given, so that each
// target is audited with the vocabulary inferred against its own schema, as
// guard lint infers it offline; with --queries the statements each server
// ran are read as code too. Without either the policy alone decides: a DBA
// may have the server and not the code.
func auditVocabulary(pol *policy.Policy, paths []string, queries bool) (func(*schema.Schema, *policy.Policy, []lint.Observation) *policy.Policy, error) {
	if (len(paths) == 0 && !queries) || !pol.Infers() {
		return nil, nil
	}
	var obs []lint.Observation
	if len(paths) > 0 {
		v, err := driver.Infer(driver.Config{Paths: paths, Policy: pol, Rules: rules.All(), Learn: rules.Learn})
		if err != nil {
			return nil, lintErr(err)
		}
		obs = v.Observations
	}
	return func(s *schema.Schema, pol *policy.Policy, observed []lint.Observation) *policy.Policy {
		return pol.WithInferred(rules.Learn.Infer(append(obs[:len(obs):len(obs)], observed...), s, pol))
	}, nil
}

// redisTargets parses the --redis addresses. Errors name the address by its
// place (--redis #N) and hold no text of it; the same server given twice is
// refused, as a database is.
func redisTargets(c *cli.Context) ([]*target.Redis, error) {
	l, ok := c.Generic("redis").(*dsnList)
	if !ok {
		return nil, nil
	}
	var out []*target.Redis
	seen := map[string]int{}
	for i, addr := range l.dsns {
		r, err := target.ParseRedis(addr)
		if err != nil {
			return nil, inputErrf("--redis #%d: %v", i+1, err)
		}
		if first, ok := seen[r.URL()]; ok {
			return nil, inputErrf("Redis %s is given twice (--redis #%d and #%d): give each server once", r.URL(), first, i+1)
		}
		seen[r.URL()] = i + 1
		out = append(out, r)
	}
	return out, nil
}
