// Package drill proves a table's guards under concurrency: it hammers a
// scratch copy of the table with many workers deducting one unit at a time,
// with each deduction strategy in turn, and reports what each really did —
// units sold, units oversold, whether the final stock adds up, throughput
// and latency.
//
// The scratch copy is CREATE TABLE … LIKE the table (its CHECKs, indexes and
// engine kept), seeded with its own rows, and dropped afterwards, also when
// the run is cancelled: the table's own rows are never read nor written.
// Every strategy works through a view of the copy with the canonical columns
// id, stock and version, so that one set of statements serves any table; the
// lock-cas strategy runs the DAO guard gen generates for that shape
// (package drilldao) with WithTable naming the view.
package drill

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/policy"
)

// Strategy is a way to deduct one unit of stock.
type Strategy string

// The strategies, in the order they run.
const (
	// Naive reads the stock, checks it, and writes the computed value: the
	// lost update every other strategy prevents.
	Naive Strategy = "naive"
	// ForUpdate locks the row with SELECT … FOR UPDATE in a transaction,
	// checks, and writes stock = stock - n.
	ForUpdate Strategy = "for-update"
	// Conditional is one guarded UPDATE … WHERE stock >= n whose
	// RowsAffected says whether it sold.
	Conditional Strategy = "conditional"
	// CAS reads stock and version and writes with a version compare-and-set,
	// retrying conflicts with jittered backoff.
	CAS Strategy = "cas"
	// LockCAS is the generated Deduct…Locked: a Redis lock around the read
	// and a compare-and-set that also re-checks the amount.
	LockCAS Strategy = "lock-cas"
)

// Strategies lists every strategy in the order a drill runs them.
func Strategies() []Strategy {
	return []Strategy{Naive, ForUpdate, Conditional, CAS, LockCAS}
}

// ParseStrategies reads a comma-separated list of strategy names ("all" or
// "" for every one). The result keeps the order of Strategies, without
// repeats.
func ParseStrategies(list string) ([]Strategy, error) {
	list = strings.TrimSpace(list)
	if list == "" || strings.EqualFold(list, "all") {
		return Strategies(), nil
	}
	want := map[Strategy]bool{}
	for _, name := range strings.Split(list, ",") {
		s := Strategy(strings.ToLower(strings.TrimSpace(name)))
		if !slices.Contains(Strategies(), s) {
			return nil, fmt.Errorf("unknown strategy %q (want all or some of %s)", strings.TrimSpace(name), strategyNames())
		}
		want[s] = true
	}
	var out []Strategy
	for _, s := range Strategies() {
		if want[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

func strategyNames() string {
	var names []string
	for _, s := range Strategies() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

// Fault is what the drill does to Redis while lock-cas runs.
type Fault string

// The faults.
const (
	NoFault Fault = ""
	// FaultFlush deletes every lock key of the drill every few
	// milliseconds: what a FLUSHALL, or a restart without persistence, does
	// to them, without touching the other keys of the server.
	FaultFlush Fault = "flush"
	// FaultRestart restarts Redis a few times during the run through
	// Options.RestartRedis; only a harness that owns the server can.
	FaultRestart Fault = "restart"
)

// Options configure a drill.
type Options struct {
	// DB is a pool on the database holding Table. Its size bounds the
	// statements in flight; give it as many idle connections as open ones.
	DB *sql.DB
	// Database names it, for information_schema.
	Database string
	// Redis is the client of lock-cas; required when it runs.
	Redis redis.UniversalClient
	// Table is the table whose copy is drilled; Column its counter, when the
	// policy finds several.
	Table  string
	Column string
	// Policy gives the counter heuristics, the version column and the lock
	// settings of lock-cas and cas; nil means the built-in policy.
	Policy *policy.Policy
	// Rows is how many rows are seeded, each holding Stock units: one row is
	// the hot row mode, more the spread mode.
	Rows  int
	Stock int64
	// Workers deduct at once, each one unit at a time.
	Workers int
	// Duration stops each strategy after it; 0 runs until sold out.
	Duration time.Duration
	// Strategies run in turn; nil means all.
	Strategies []Strategy
	Fault      Fault
	// RestartRedis restarts the Redis server of Redis and returns once it
	// answers again: FaultRestart needs it.
	RestartRedis func() error
	// Progress, when set, gets a one-line progress display per strategy.
	Progress io.Writer
	// Nodes splits the workers over this many application nodes sharing
	// one Redis, each with its own pool, Redis client and DAO (and so its
	// own in-process lines of hot-row combining); 0 means 1. Node 0 works
	// with DB and Redis, NewNode opens the others.
	Nodes int
	// NewNode opens the pool and the Redis client (nil when lock-cas does
	// not run) of node i, 1 <= i < Nodes; the drill closes both after the
	// run. Required when Nodes > 1.
	NewNode func(ctx context.Context, i int) (*sql.DB, redis.UniversalClient, error)
}

// Defaults of the command line.
const (
	DefaultRows    = 1
	DefaultStock   = 100
	DefaultWorkers = 300
)

// RefusedError says why a table cannot be drilled: the input is wrong, not
// the server.
type RefusedError struct {
	Table  string
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("cannot drill %s: %s", e.Table, e.Reason)
}

// ErrInterrupted is returned when the run's context ends before the drill
// finished; the scratch table is dropped all the same.
var ErrInterrupted = errors.New("drill interrupted")

// Check validates the options that need no server, and fills in the
// defaults of Strategies and Policy. Run calls it; a command line calls it
// first to tell bad input from a failed run.
func (o *Options) Check() error {
	switch {
	case o.Table == "":
		return errors.New("drill: no table")
	case o.Rows < 1:
		return fmt.Errorf("rows %d: want 1 or more", o.Rows)
	case o.Stock < 1:
		return fmt.Errorf("stock %d: want 1 or more", o.Stock)
	case o.Workers < 1:
		return fmt.Errorf("workers %d: want 1 or more", o.Workers)
	case o.Duration < 0:
		return fmt.Errorf("duration %v: want 0 (until sold out) or more", o.Duration)
	case o.Rows > maxRows:
		return fmt.Errorf("rows %d: at most %d", o.Rows, maxRows)
	case o.Stock > maxStock:
		return fmt.Errorf("stock %d: at most %d", o.Stock, int64(maxStock))
	case o.Nodes < 0:
		return fmt.Errorf("nodes %d: want 1 or more", o.Nodes)
	case o.Nodes > o.Workers:
		return fmt.Errorf("nodes %d: at most one per worker (%d workers)", o.Nodes, o.Workers)
	case o.Nodes > 1 && o.NewNode == nil:
		return fmt.Errorf("nodes %d: no way to open the pools of the other nodes", o.Nodes)
	}
	if o.Nodes == 0 {
		o.Nodes = 1
	}
	if len(o.Strategies) == 0 {
		o.Strategies = Strategies()
	}
	if o.Policy == nil {
		o.Policy = policy.Default()
	}
	runsLockCAS := slices.Contains(o.Strategies, LockCAS)
	switch o.Fault {
	case NoFault:
	case FaultFlush, FaultRestart:
		if !runsLockCAS {
			return fmt.Errorf("fault %s: it acts on lock-cas, which is not among the strategies", o.Fault)
		}
		if o.Fault == FaultRestart && o.RestartRedis == nil {
			return errors.New("fault restart needs a Redis the drill can restart: run it from the test harness")
		}
	default:
		return fmt.Errorf("fault %q: want flush or restart", o.Fault)
	}
	if runsLockCAS && o.Redis == nil {
		return errors.New("lock-cas needs a Redis (--redis ADDR), or leave it out of the strategies")
	}
	return nil
}

// Bounds of the seed: the drill is a test, not a load generator, and the
// units of every row, twice over, must add up in an int64.
const (
	maxRows  = 1_000_000
	maxStock = 1e12
)
