package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"
	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/audit"
	"github.com/guard-sql/guard/internal/drill"
	"github.com/guard-sql/guard/internal/driverlog"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/internal/target"
)

// defaultDrillConns is the default size of the drill's connection pool:
// enough for every strategy to queue at the database rather than in the
// pool, well below the default max_connections (151).
const defaultDrillConns = 64

func drillCommand() *cli.Command {
	return &cli.Command{
		Name:      "drill",
		Usage:     "prove a table's guards under concurrent deductions, strategy by strategy",
		ArgsUsage: " ",
		Description: `Copies the table into a scratch table (CREATE TABLE guard_drill_<hex> LIKE T:
its CHECKs, indexes and engine kept, none of its rows), seeds --rows rows of
--stock units, and lets --workers goroutines deduct one unit at a time until
every row is sold out (or for --duration), with each strategy in turn on
freshly seeded stock:

   naive        read the stock, check it, write the computed value
   for-update   transaction: SELECT … FOR UPDATE, check, stock = stock - 1
   conditional  UPDATE … SET stock = stock - 1 WHERE id = ? AND stock >= 1
   cas          read stock and version, write with version = ?, retry with backoff
   lock-cas     the code guard gen writes: Redis lock, read, version CAS, retry;
                a node's concurrent deductions of one row are combined into one
                guarded write of their sum (WithCombine)

It reports per strategy the units sold, those oversold (sold beyond the
stock), the final stock and whether stock - sold == final, sales per second,
latency (p50, p99, max), compare-and-set conflicts and lock failures. The
scratch table, its view and the lock keys of lock-cas are dropped
afterwards, also on Ctrl-C or SIGTERM; the table's own rows are never read
nor written. A row that sold twice its
stock stops there: the oversell is proven.

The table needs a single-column integer primary key and an integer counter
(policy counter_columns, or --column). Without the policy's version column
the drill adds one to its copy. Every strategy runs through a view of the
copy (id, stock, version). Statements go with their arguments inlined
(interpolateParams), one round trip each, as in most production pools.

--nodes N splits the workers over N application nodes sharing one Redis:
each has its own database pool, Redis client and DAO, so lock-cas contends
across processes as a fleet does. lock-cas also reports how long the lock
was held (p50, p99, max) and the TTL of 3-5x the longest hold that the
measure advises, against the configured one.

--conns is the budget of all the nodes together: each node's pool gets its
share, at least one connection and at most one per worker of the node.
More nodes than a given --conns is refused; without --conns the default 64
grows to one connection per node, and the drill says so. A budget above the
server's max_connections (or the account's max_user_connections) is refused
before anything is created, not met with Error 1040 mid-run.

--connect-timeout (default 5s) bounds how long MySQL and Redis each have to
accept a connection and answer (the MySQL greeting, a Redis PING, the TLS
handshake of rediss://); a server that does not is named in the error. When
Redis goes away during the drill, its failed dials are told once, with their
count, at the end.

--fault flush deletes the drill's lock keys every 2ms while lock-cas runs,
as a FLUSHALL or a restart without persistence would (other keys are left
alone). --fault restart needs a Redis the drill can restart: it is only
available from the test harness.

Exit codes: 0 every guarded strategy held, 1 one oversold or lost updates
(naive is expected to), 2 bad input, a table the drill cannot run on or a
connection budget the server cannot hold, 3 runtime failure (a server that
cannot be reached or does not answer) or interrupted.

Examples:
   guard drill --dsn 'app:secret@tcp(db:3306)/shop' --redis 127.0.0.1:6379 --table t_inventory
   guard drill --table t_inventory --rows 10 --stock 1000 --strategies conditional,lock-cas
   guard drill --table t_inventory --duration 30s --fault flush --format json > drill.json
   guard drill --table t_inventory --format html > drill.html   # charts and tables, one page`,
		Flags: append(drillFlags.flags(),
			&cli.StringFlag{Name: "dsn", Usage: "the database holding the table (default $" + target.EnvDSN + ")"},
			&cli.StringFlag{Name: "redis", Usage: "Redis of the lock-cas strategy: host:port, redis://[:password@]host:port/db, rediss://… (TLS) or sentinel://[:password@]host:port[,host:port]/master"},
			&cli.StringFlag{Name: "table", Usage: "the table to drill", Required: true},
			&cli.StringFlag{Name: "column", Usage: "the counter to deduct, when the policy finds several or none"},
			&cli.IntFlag{Name: "rows", Value: drill.DefaultRows, Usage: "rows seeded: 1 is the hot row, more spread the workers at random"},
			&cli.Int64Flag{Name: "stock", Value: drill.DefaultStock, Usage: "units per row"},
			&cli.IntFlag{Name: "workers", Value: drill.DefaultWorkers, Usage: "concurrent buyers"},
			&cli.DurationFlag{Name: "duration", Usage: "stop each strategy after this long (default: until sold out)"},
			&cli.StringFlag{Name: "strategies", Value: "all", Usage: "comma-separated: naive, for-update, conditional, cas, lock-cas"},
			&cli.StringFlag{Name: "fault", Usage: "Redis fault during lock-cas: flush (restart: test harness only)"},
			&cli.IntFlag{Name: "conns", Value: defaultDrillConns, Usage: "database connections of all the nodes together, at least one per node (the default grows to --nodes)"},
			&cli.IntFlag{Name: "nodes", Value: 1, Usage: "application nodes sharing Redis: the workers are split over this many DAOs, each with its own pool and Redis client"},
			connectTimeoutFlag(),
		),
		Action: runDrill,
	}
}

func runDrill(c *cli.Context) error {
	if c.Args().Present() {
		return inputErrf("drill takes no arguments (got %d): name the table with --table", c.Args().Len())
	}
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	format, rank := c.String("format"), failRank(c)
	opts, budget, err := drillOptions(c, pol)
	if err != nil {
		return err
	}

	tg, rd, red, err := drillTargets(c)
	if err != nil {
		return err
	}
	opts.Database = tg.Database()
	stdout, stderr := red.Writer(c.App.Writer), red.Writer(c.App.ErrWriter)
	// The dialer counts the failed dials of Redis, told once at the end:
	// go-redis's own line for each would be hundreds when Redis goes away.
	defer driverlog.Route(withoutDialFailures{stderr})()
	dialFailures := &target.DialFailures{}
	if rd != nil {
		rdb := drillRedis(rd, budget.workers[0], dialFailures)
		defer rdb.Close()
		opts.Redis = rdb
	}
	opts.NewNode = drillNode(tg, rd, budget, stderr, dialFailures)
	if err := opts.Check(); err != nil {
		return inputErr(err)
	}
	if budget.raised {
		fmt.Fprintf(stderr, "guard: --nodes %d needs a connection per node: the drill opens up to %d, more than the default --conns %d\n",
			opts.Nodes, budget.total(), defaultDrillConns)
	}

	db, err := tg.Connect(c.Context, drillConnectOptions(budget.pools[0], stderr))
	if err != nil {
		return fmt.Errorf("%s: %v", tg.Name(), err)
	}
	defer db.Close()
	opts.DB = db
	if err := budget.fits(c.Context, db); err != nil {
		return err
	}
	if err := pingRedis(c.Context, opts.Redis); err != nil {
		return errors.New(red.Redact(fmt.Sprintf("%s: %v", rd.Name(), err)))
	}
	defer func() {
		for _, line := range dialFailures.Lines() {
			fmt.Fprintf(stderr, "guard: %s\n", line)
		}
	}()
	if audit.ShowProgress(c.App.ErrWriter) {
		opts.Progress = stderr
	}

	rep, err := drill.Run(c.Context, opts)
	if err != nil {
		return drillFailure(err, rep, opts.Table, tg, red)
	}
	if err := writeDrillReport(stdout, format, rep); err != nil {
		return err
	}
	if len(rep.Failed()) > 0 && rank <= policy.SevError.Rank() {
		return &exitError{code: exitFindings}
	}
	return nil
}

// drillOptions reads the drill's flags into its options, refusing the
// values it cannot run with, and shares the connections (--conns) and the
// workers out over the nodes.
func drillOptions(c *cli.Context, pol *policy.Policy) (opts drill.Options, budget *connBudget, err error) {
	strategies, err := drill.ParseStrategies(c.String("strategies"))
	if err != nil {
		return opts, nil, inputErrf("--strategies: %v", err)
	}
	fault := drill.Fault(c.String("fault"))
	if fault == drill.FaultRestart {
		return opts, nil, inputErrf("--fault restart needs a Redis the drill can restart: run it from the test harness (internal/drill's tests restart a throwaway redis-server); use --fault flush here")
	}
	conns, nodes := c.Int("conns"), c.Int("nodes")
	if conns < 1 {
		return opts, nil, inputErrf("--conns %d: want 1 or more", conns)
	}
	if nodes < 1 {
		return opts, nil, inputErrf("--nodes %d: want 1 or more", nodes)
	}
	opts = drill.Options{
		Table: c.String("table"), Column: c.String("column"), Policy: pol,
		Rows: c.Int("rows"), Stock: c.Int64("stock"), Workers: c.Int("workers"), Duration: c.Duration("duration"),
		Strategies: strategies, Fault: fault, Nodes: nodes,
	}
	if nodes > conns && c.IsSet("conns") {
		return opts, nil, inputErrf("--nodes %d needs a connection per node: more than --conns %d", nodes, conns)
	}
	return opts, shareConns(conns, nodes, max(opts.Workers, nodes)), nil
}

// connBudget is how the drill's connections are shared out: --conns is
// the budget of all the nodes together, as the connections of a fleet of
// application processes add up on the server.
type connBudget struct {
	// conns is the budget; raised says it is the default raised to one
	// connection per node.
	conns  int
	raised bool
	// pools holds the size of each node's pool: its share of the budget,
	// at least one connection and at most one per worker of the node;
	// workers the workers of each node.
	pools, workers []int
}

// shareConns shares conns connections and workers workers out over
// nodes nodes, the remainders to the first nodes, as the drill puts
// worker i on node i % nodes. A budget below one connection per node is
// raised to that.
func shareConns(conns, nodes, workers int) *connBudget {
	b := &connBudget{conns: max(conns, nodes), raised: conns < nodes}
	for i := range nodes {
		share := b.conns/nodes + btoi(i < b.conns%nodes)
		w := workers/nodes + btoi(i < workers%nodes)
		b.pools = append(b.pools, max(min(share, w), 1))
		b.workers = append(b.workers, w)
	}
	return b
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// total is the most connections the nodes' pools open together.
func (b *connBudget) total() int {
	n := 0
	for _, p := range b.pools {
		n += p
	}
	return n
}

// fits refuses a budget the server cannot hold, before anything is
// created: it would fail mid-run with Error 1040 (too many connections) or
// 1203 (the account's max_user_connections).
func (b *connBudget) fits(ctx context.Context, db *sql.DB) error {
	var server, account int
	err := db.QueryRowContext(ctx, "SELECT @@GLOBAL.max_connections, @@SESSION.max_user_connections").Scan(&server, &account)
	var refused *mysql.MySQLError
	switch {
	case errors.As(err, &refused):
		// A server without the variables (an older TiDB, a proxy) is
		// not checked: the check only gives a clearer message.
		return nil
	case err != nil:
		return fmt.Errorf("read max_connections: %w", err)
	}
	need := b.total()
	why := fmt.Sprintf("the drill opens up to %d connections (--conns %d, at most one per worker)", need, b.conns)
	if b.raised {
		why = fmt.Sprintf("--nodes %d needs %d connections (one per node)", len(b.pools), need)
	}
	switch {
	case need > server:
		return inputErrf("%s, more than the server's max_connections %d", why, server)
	case account > 0 && need > account:
		return inputErrf("%s, more than the account's max_user_connections %d", why, account)
	}
	return nil
}

// drillTargets parses the database (--dsn, else $GUARD_DSN) and the Redis
// (--redis) of the drill, and returns them with the one redactor of both
// passwords that every message and writer of the drill goes through.
func drillTargets(c *cli.Context) (*target.Target, *target.Redis, *target.Redactor, error) {
	timeout := c.Duration("connect-timeout")
	if err := checkConnectTimeout(timeout); err != nil {
		return nil, nil, nil, err
	}
	tg, err := target.One(c.String("dsn"), os.Getenv(target.EnvDSN))
	if err != nil {
		return nil, nil, nil, inputErr(err)
	}
	tg.SetConnectTimeout(timeout)
	var rd *target.Redis
	if addr := c.String("redis"); addr != "" {
		if rd, err = target.ParseRedis(addr); err != nil {
			return nil, nil, nil, inputErrf("--redis: %v", err)
		}
		rd.SetConnectTimeout(timeout)
	}
	return tg, rd, target.NewRedactor(tg, rd), nil
}

// drillConnectOptions is how every node connects, with a pool of conns.
// Statements are sent with their arguments inlined, one round trip each,
// unless the connection's collation makes that unsafe.
func drillConnectOptions(conns int, log io.Writer) target.ConnectOptions {
	return target.ConnectOptions{Conns: conns, Log: log, Adjust: func(cfg *mysql.Config) {
		cfg.InterpolateParams = true
		if _, err := mysql.NewConnector(cfg); err != nil {
			cfg.InterpolateParams = false
		}
	}}
}

// drillNode is the drill's NewNode: every node after the first gets a pool
// of its own, of its share of the budget, and, with Redis, a client of its
// own, as another application process would.
func drillNode(tg *target.Target, rd *target.Redis, budget *connBudget, log io.Writer, fails *target.DialFailures) func(context.Context, int) (*sql.DB, redis.UniversalClient, error) {
	return func(ctx context.Context, i int) (*sql.DB, redis.UniversalClient, error) {
		db, err := tg.Connect(ctx, drillConnectOptions(budget.pools[i], log))
		if err != nil {
			return nil, nil, err
		}
		if rd == nil {
			return db, nil, nil
		}
		return db, drillRedis(rd, budget.workers[i], fails), nil
	}
}

// drillFailure is the error of a drill that did not complete: a table the
// drill refuses is an input error, an interrupted drill says its scratch
// table is gone, and any text is redacted, as a server's error may hold
// the DSN.
func drillFailure(err error, rep *drill.Report, table string, tg *target.Target, red *target.Redactor) error {
	var refused *drill.RefusedError
	switch {
	case errors.As(err, &refused):
		return inputErr(errors.New(red.Redact(err.Error())))
	case errors.Is(err, drill.ErrInterrupted):
		return errors.New(red.Redact(fmt.Sprintf("%v (scratch table %s dropped)", err, rep.Scratch)))
	default:
		return errors.New(red.Redact(fmt.Sprintf("drill %s on %s: %v", table, tg.Name(), err)))
	}
}

// writeDrillReport renders the report whole before writing it, so that the
// redacting writer sees it in one Write.
func writeDrillReport(w io.Writer, format string, rep *drill.Report) error {
	var buf bytes.Buffer
	var err error
	switch format {
	case "json":
		err = drill.WriteJSON(&buf, rep, guardVersion())
	case report.FormatHTML:
		err = report.WriteDrillHTML(&buf, drillHTML(rep), report.Options{Version: guardVersion(), Generated: time.Now()})
	default:
		err = drill.WriteText(&buf, rep)
	}
	if err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// pingRedis pings Redis, when given, so that an unreachable one fails
// before anything is created.
func pingRedis(ctx context.Context, rdb redis.UniversalClient) error {
	if rdb == nil {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}

// drillRedis is the client of lock-cas. It gives up fast when Redis is
// down, as the lock it serves does not guard anything, and has a connection
// per worker. Its failed dials are counted in fails.
func drillRedis(rd *target.Redis, workers int, fails *target.DialFailures) redis.UniversalClient {
	return rd.Client(target.RedisOptions{
		PoolSize:    max(workers, 1) + 16,
		ReadTimeout: 500 * time.Millisecond,
		MaxRetries:  1, DialerRetries: 1,
		Failures: fails,
	})
}

// withoutDialFailures passes the drivers' log lines on but go-redis's
// "failed to dial" ones, which target.DialFailures counts.
type withoutDialFailures struct{ w io.Writer }

func (f withoutDialFailures) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("redis client: connection pool: failed to dial")) {
		return len(p), nil
	}
	return f.w.Write(p)
}
