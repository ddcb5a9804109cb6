package audit

import (
	"context"
	"sync"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
)

// Failure is a target that could not be audited, in the json report's
// "failures" array.
type Failure struct {
	Target string `json:"target"`
	Error  string `json:"error"`
}

// Report is the outcome of auditing a fleet.
type Report struct {
	// Result holds the findings of every audited target; its summary counts
	// them and the tables read.
	Result *lint.Result
	// Failures lists the targets that could not be audited, in input order.
	Failures []Failure
	// Targets has one result per target, in input order, the Redis
	// servers after the databases.
	Targets []*TargetResult
	// Notes say what the audit of each target could not see, in input order.
	Notes []Note
	// Redis says what the audit of each Redis server reached saw, in input
	// order: the json report's "redis" array.
	Redis []RedisServer
}

// RedisServer is what the audit of one Redis server saw: its role, its
// replicas with their lag, and the scan of its lock keys.
type RedisServer struct {
	Target string `json:"target"`
	// Summary is DescribeRedis's line, the one printed on stderr.
	Summary string `json:"summary"`
	Role    string `json:"role"`
	// Sentinel is the Sentinel that named this primary, host:port/master.
	Sentinel string         `json:"sentinel,omitempty"`
	Replicas []RedisReplica `json:"replicas"`
	// LockKeys is nil when the scan could not run.
	LockKeys *LockKeys `json:"lock_keys"`
}

// RedisReplica is one replica of an audited primary; -1 is unknown.
type RedisReplica struct {
	Addr        string `json:"addr"`
	State       string `json:"state"`
	LagSeconds  int64  `json:"lag_seconds"`
	BytesBehind int64  `json:"bytes_behind"`
}

// LockKeys is the scan of the keys matching the lock pattern.
type LockKeys struct {
	Pattern    string `json:"pattern"`
	DB         int    `json:"db"`
	Examined   int    `json:"examined"`
	Capped     bool   `json:"capped"`
	WithoutTTL int    `json:"without_ttl"`
}

func redisServer(target string, f *lint.Redis) RedisServer {
	s := RedisServer{Target: target, Summary: DescribeRedis(f), Role: f.Role(), Sentinel: f.Sentinel, Replicas: []RedisReplica{}}
	for _, r := range f.Replicas {
		s.Replicas = append(s.Replicas, RedisReplica{r.Addr, r.State, r.LagSeconds, r.BytesBehind})
	}
	if l := f.Locks; l != nil {
		s.LockKeys = &LockKeys{l.Pattern, l.DB, l.Examined, l.Capped, l.WithoutTTL}
	}
	return s
}

// Note is something the audit of a target could not see.
type Note struct {
	Target  string `json:"target"`
	Message string `json:"message"`
}

// Run audits targets and the Redis servers of opts.Redis, opts.Parallel at
// a time. A target that cannot be
// reached or read is a Failure; the others are audited and reported all
// the same. Every error text is redacted with the passwords of all targets.
func Run(ctx context.Context, targets []*target.Target, opts Options) *Report {
	opts = opts.withDefaults()
	red := Redactor(targets, opts.Redis)
	opts.Log = red.Writer(opts.Log)
	done := auditAll(ctx, targets, opts)
	rep := newReport(uniqueResults(done, len(targets)), red)
	rep.Result.Findings = groupByServer(rep.Result.Findings, rep.Targets, opts.Rules)
	lint.Order(rep.Result.Findings)
	if opts.Baseline != nil {
		var o lint.BaselineOutcome
		rep.Result.Findings, o = opts.Baseline.Filter(rep.Result.Findings)
		if len(rep.Failures) > 0 {
			// An entry of a target not audited is not paid debt.
			o.Stale = nil
		}
		rep.Result.Baseline = &o
	}
	for _, f := range rep.Result.Findings {
		switch f.Severity {
		case policy.SevError:
			rep.Result.Summary.Error++
		case policy.SevWarning:
			rep.Result.Summary.Warning++
		case policy.SevInfo:
			rep.Result.Summary.Info++
		}
	}
	return rep
}

// Redactor returns the redactor of the passwords of every database and
// Redis server of an audit: a driver or network error of one target may
// echo another's DSN, so every text of the audit is redacted with all of
// them.
func Redactor(targets []*target.Target, redis []*target.Redis) *target.Redactor {
	from := make([]target.Secrets, 0, len(targets)+len(redis))
	for _, t := range targets {
		from = append(from, t)
	}
	for _, r := range redis {
		from = append(from, r)
	}
	return target.NewRedactor(from...)
}

// auditAll audits the databases, then the Redis servers, opts.Parallel at a
// time: one job list, so that --parallel bounds them together. A Redis
// Cluster seed gives one result per primary, hence a list per job, indexed
// as the jobs.
func auditAll(ctx context.Context, targets []*target.Target, opts Options) [][]*TargetResult {
	jobs := len(targets) + len(opts.Redis)
	done := make([][]*TargetResult, jobs)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(opts.Parallel, jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if i < len(targets) {
					done[i] = []*TargetResult{AuditTarget(ctx, targets[i], opts)}
				} else {
					done[i] = AuditRedisAll(ctx, opts.Redis[i-len(targets)], opts)
				}
				if opts.Done != nil {
					opts.Done(done[i][0])
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return done
}

// uniqueResults flattens the results of the jobs, in job order. Two seeds
// of one Redis Cluster reach the same primaries: each is reported once.
// The jobs before the index databases are the databases, never merged.
func uniqueResults(done [][]*TargetResult, databases int) []*TargetResult {
	var results []*TargetResult
	seen := map[string]bool{}
	for i, rs := range done {
		for _, res := range rs {
			if i >= databases {
				if seen[res.Target] {
					continue
				}
				seen[res.Target] = true
			}
			results = append(results, res)
		}
	}
	return results
}

// newReport gathers the findings, notes, Redis summaries and counts of
// every result, and turns each failed one into a Failure whose error text
// is redacted with red, the passwords of every target.
func newReport(results []*TargetResult, red *target.Redactor) *Report {
	rep := &Report{Result: &lint.Result{Findings: []lint.Finding{}}, Targets: results}
	for _, res := range results {
		if res.Err != nil {
			rep.Failures = append(rep.Failures, Failure{Target: res.Target, Error: red.Redact(res.Err.Error())})
			continue
		}
		for _, n := range res.Notes {
			rep.Notes = append(rep.Notes, Note{Target: res.Target, Message: n})
		}
		if res.Redis != nil {
			rep.Redis = append(rep.Redis, redisServer(res.Target, res.Redis))
		}
		rep.Result.Findings = append(rep.Result.Findings, res.Findings...)
		rep.Result.Summary.Tables += res.Tables
		rep.Result.Summary.Statements += res.Statements
	}
	return rep
}

// ServerAddr is the host:port of a database target, which the findings of
// the server as a whole (Rule.PerServer) name; "" for a Redis server.
func (r *TargetResult) ServerAddr() string { return r.server }

// Queries returns how many statements the audit sent, over all targets.
func (r *Report) Queries() int {
	n := 0
	for _, t := range r.Targets {
		n += t.Queries
	}
	return n
}

// groupByServer keeps one of the findings of the PerServer rules (GS011,
// GS012) that the databases of one server each reported alike, named by
// the server (host:port), with how many audited databases share it: a
// fleet of 200 shards on one server reads as one server's durability.
func groupByServer(fs []lint.Finding, results []*TargetResult, rules []*lint.Rule) []lint.Finding {
	perServer := map[string]bool{}
	for _, r := range rules {
		if r.PerServer {
			perServer[r.Code] = true
		}
	}
	if len(perServer) == 0 {
		return fs
	}
	databases := map[string]int{}
	for _, res := range results {
		if res.Err == nil && res.Redis == nil && res.server != "" {
			databases[res.server]++
		}
	}
	type key struct {
		code, target, column, message string
		severity                      policy.Severity
	}
	seen := map[key]bool{}
	out := fs[:0]
	for _, f := range fs {
		if perServer[f.Code] {
			k := key{f.Code, f.Target, f.ColumnName, f.Message, f.Severity}
			if seen[k] {
				continue
			}
			seen[k] = true
			f.Databases = databases[f.Target]
		}
		out = append(out, f)
	}
	return out
}
