package drill

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/drill/drilldao"
	"github.com/guard-sql/guard/internal/policy"
)

// outcome is what one deduction did.
type outcome int

const (
	// sold: one unit deducted.
	sold outcome = iota
	// insufficient: the row held less than the amount; nothing changed.
	insufficient
	// refused: nothing changed and the caller may try again (a conflict
	// after every attempt, a lock not acquired or lost, a deadlock).
	refused
)

// amount is what each deduction takes: one unit, as a sale of one item.
const amount = 1

// deductFunc deducts amount from row id.
type deductFunc func(ctx context.Context, id int64) (outcome, error)

// The statements of the hand-written strategies, on the canonical drill
// table (testdata/drill_table.up.sql) so that guard lint checks them as it
// checks any code; bindView puts them on the view of a run.
const (
	sqlRead        = "SELECT `stock` FROM `guard_drill` WHERE `id` = ?"
	sqlReadVersion = "SELECT `stock`, `version` FROM `guard_drill` WHERE `id` = ?"
	// guard:ignore GQ007 for-update is one of the strategies the drill compares
	sqlReadForUpdate = "SELECT `stock` FROM `guard_drill` WHERE `id` = ? FOR UPDATE"
	// The naive write bumps the version, as every write of a versioned table
	// must, and is still the lost update: its WHERE checks neither the
	// version nor the stock.
	// guard:ignore GQ003 the naive write is the lost update the drill shows
	sqlWriteNaive = "UPDATE `guard_drill` SET `stock` = ?, `version` = `version` + 1 WHERE `id` = ?"
	// guard:ignore GQ002 for-update checks the stock of the row it locked first
	sqlDecrement   = "UPDATE `guard_drill` SET `stock` = `stock` - ?, `version` = `version` + 1 WHERE `id` = ?"
	sqlConditional = "UPDATE `guard_drill` SET `stock` = `stock` - ?, `version` = `version` + 1 WHERE `id` = ? AND `stock` >= ?"
	sqlCAS         = "UPDATE `guard_drill` SET `stock` = ?, `version` = `version` + 1 WHERE `id` = ? AND `version` = ?"
)

// drillTable is the table the statements above name.
const drillTable = "guard_drill"

// viewBinding puts the statements on the view of a run, as the generated
// DAO's WithTable does: the table's name, where it stands after FROM or
// UPDATE, becomes the view's.
type viewBinding struct {
	r *strings.Replacer
}

func bindView(view string) viewBinding {
	from, to := quoteIdent(drillTable), quoteIdent(view)
	return viewBinding{r: strings.NewReplacer("FROM "+from+" ", "FROM "+to+" ", "UPDATE "+from+" ", "UPDATE "+to+" ")}
}

// Rebind returns query on the view. (Named like sqlx's Rebind, which guard
// lint looks through to the constant it rewrites.)
func (b viewBinding) Rebind(query string) string { return b.r.Replace(query) }

// viewSQL holds the statements of the hand-written strategies on a view.
type viewSQL struct {
	read, readVersion, readForUpdate string
	writeNaive, decrement            string
	conditional, cas                 string
}

func newViewSQL(view string) viewSQL {
	b := bindView(view)
	return viewSQL{
		read: b.Rebind(sqlRead), readVersion: b.Rebind(sqlReadVersion), readForUpdate: b.Rebind(sqlReadForUpdate),
		writeNaive: b.Rebind(sqlWriteNaive), decrement: b.Rebind(sqlDecrement),
		conditional: b.Rebind(sqlConditional), cas: b.Rebind(sqlCAS),
	}
}

// strategyRun is one strategy ready to run, with its counters.
type strategyRun struct {
	// deducts holds one deduction per node, on the node's pool (and, for
	// lock-cas, its own DAO and Redis client).
	deducts []deductFunc
	// conflicts counts the compare-and-sets that lost (cas; lock-cas
	// reports them through its metrics).
	conflicts atomic.Int64
	metrics   *lockMetrics // lock-cas only
}

// newStrategyRun prepares strategy s on the view of sc, once per node.
func newStrategyRun(s Strategy, sc *scratch, opts *Options, nodes []node) *strategyRun {
	r := &strategyRun{}
	if s == LockCAS {
		r.metrics = &lockMetrics{}
	}
	for _, n := range nodes {
		r.deducts = append(r.deducts, r.nodeDeduct(s, sc, opts, n))
	}
	return r
}

// nodeDeduct returns the deduction of strategy s on node n.
func (r *strategyRun) nodeDeduct(s Strategy, sc *scratch, opts *Options, n node) deductFunc {
	q := newViewSQL(sc.view)
	db := n.db
	switch s {
	case Naive:
		return func(ctx context.Context, id int64) (outcome, error) { return naive(ctx, db, q, id) }
	case ForUpdate:
		return func(ctx context.Context, id int64) (outcome, error) { return forUpdate(ctx, db, q, id) }
	case Conditional:
		return func(ctx context.Context, id int64) (outcome, error) { return conditional(ctx, db, q, id) }
	case CAS:
		lock := opts.Policy.Lock
		return func(ctx context.Context, id int64) (outcome, error) {
			return compareAndSet(ctx, db, q, id, lock, &r.conflicts)
		}
	case LockCAS:
		dao := newLockedDAO(db, n.rdb, sc.view, opts, r.metrics)
		return func(ctx context.Context, id int64) (outcome, error) {
			return lockedOutcome(dao.DeductStockLocked(ctx, id, amount))
		}
	}
	panic("drill: unknown strategy " + string(s))
}

// naive reads, checks, and writes the computed value: between its read and
// its write another worker may sell the same units (a lost update). Its
// success is err == nil, as in the code it stands for.
func naive(ctx context.Context, db *sql.DB, q viewSQL, id int64) (outcome, error) {
	var stock int64
	if err := db.QueryRowContext(ctx, q.read, id).Scan(&stock); err != nil {
		return 0, fmt.Errorf("naive: read row %d: %w", id, err)
	}
	if stock < amount {
		return insufficient, nil
	}
	if _, err := db.ExecContext(ctx, q.writeNaive, stock-amount, id); err != nil {
		return 0, fmt.Errorf("naive: write row %d: %w", id, err)
	}
	return sold, nil
}

// forUpdate locks the row in a transaction, checks it, and decrements.
func forUpdate(ctx context.Context, db *sql.DB, q viewSQL, id int64) (outcome, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("for-update: begin: %w", err)
	}
	// Whatever happens before the commit, the row lock must go; after it,
	// Rollback does nothing.
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, q.readForUpdate, id).Scan(&stock); err != nil {
		return retryable(fmt.Errorf("for-update: lock row %d: %w", id, err))
	}
	if stock < amount {
		return insufficient, nil
	}
	res, err := tx.ExecContext(ctx, q.decrement, amount, id)
	if err != nil {
		return retryable(fmt.Errorf("for-update: write row %d: %w", id, err))
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return 0, fmt.Errorf("for-update: write row %d changed %d rows (%v), want 1", id, n, err)
	}
	if err := tx.Commit(); err != nil {
		return retryable(fmt.Errorf("for-update: commit row %d: %w", id, err))
	}
	return sold, nil
}

// conditional runs one guarded UPDATE: RowsAffected == 1 is a sale, 0 means
// the row held too little (it cannot be gone: nothing deletes it).
func conditional(ctx context.Context, db *sql.DB, q viewSQL, id int64) (outcome, error) {
	res, err := db.ExecContext(ctx, q.conditional, amount, id, amount)
	if err != nil {
		return 0, fmt.Errorf("conditional: row %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	switch {
	case err != nil:
		return 0, fmt.Errorf("conditional: row %d: %w", id, err)
	case n == 1:
		return sold, nil
	}
	return insufficient, nil
}

// compareAndSet reads stock and version and writes the computed stock if the
// version has not moved, retrying conflicts with full-jitter backoff up to
// the policy's attempts.
func compareAndSet(ctx context.Context, db *sql.DB, q viewSQL, id int64, lock policy.Lock, conflicts *atomic.Int64) (outcome, error) {
	for attempt := 1; ; attempt++ {
		var stock, version int64
		if err := db.QueryRowContext(ctx, q.readVersion, id).Scan(&stock, &version); err != nil {
			return 0, fmt.Errorf("cas: read row %d: %w", id, err)
		}
		if stock < amount {
			return insufficient, nil
		}
		res, err := db.ExecContext(ctx, q.cas, stock-amount, id, version)
		if err != nil {
			return 0, fmt.Errorf("cas: write row %d: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, fmt.Errorf("cas: write row %d: %w", id, err)
		}
		if n == 1 {
			return sold, nil
		}
		conflicts.Add(1)
		if attempt >= max(lock.MaxAttempts, 1) {
			return refused, nil
		}
		if err := sleepContext(ctx, fullJitter(attempt, lock.BackoffMin.Duration, lock.BackoffMax.Duration)); err != nil {
			return 0, err
		}
	}
}

// fullJitter returns a random sleep between 0 and min·2^(attempt-1), capped
// at max: the backoff of the generated code.
func fullJitter(attempt int, lo, hi time.Duration) time.Duration {
	ceiling := hi
	if attempt >= 1 && attempt < 31 {
		if c := lo << (attempt - 1); c > 0 && c < ceiling {
			ceiling = c
		}
	}
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// newLockedDAO returns the generated DAO working on the view, with the lock
// settings of the policy.
func newLockedDAO(db *sql.DB, rdb redis.UniversalClient, view string, opts *Options, m *lockMetrics) *drilldao.GuardDrillDAO {
	l := opts.Policy.Lock
	return drilldao.NewGuardDrillDAO(sqlx.NewDb(db, "mysql"), rdb,
		drilldao.WithTable(view),
		drilldao.WithMetrics(m),
		drilldao.WithLockTTL(l.TTL.Duration),
		drilldao.WithLockWait(l.Wait.Duration),
		drilldao.WithMaxAttempts(l.MaxAttempts),
		drilldao.WithBackoff(l.BackoffMin.Duration, l.BackoffMax.Duration),
	)
}

// lockedOutcome maps the generated DAO's errors to outcomes.
func lockedOutcome(err error) (outcome, error) {
	switch {
	case err == nil:
		return sold, nil
	case errors.Is(err, drilldao.ErrInsufficient):
		return insufficient, nil
	case errors.Is(err, drilldao.ErrConflict), errors.Is(err, drilldao.ErrLockNotAcquired), errors.Is(err, drilldao.ErrLockLost):
		return refused, nil
	}
	return retryable(fmt.Errorf("lock-cas: %w", err))
}

// retryable turns a deadlock or a lock wait timeout, after which nothing
// changed, into a refusal; other errors stay errors.
func retryable(err error) (outcome, error) {
	if code, ok := mysqlErrno(err); ok && (code == 1213 || code == 1205) {
		return refused, nil
	}
	return 0, err
}

// mysqlErrno returns the server's error number of err.
func mysqlErrno(err error) (uint16, bool) {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number, true
	}
	return 0, false
}

// lockMetrics counts the generated DAO's events, of every node.
type lockMetrics struct {
	drilldao.NopMetrics
	taken, failed, renewFailed, releaseLost, conflicts atomic.Int64
	// held is the histogram of the lock hold times, under mu.
	mu   sync.Mutex
	held histogram
}

// LockHeld implements drilldao.Metrics.
func (m *lockMetrics) LockHeld(_ string, d time.Duration) {
	m.mu.Lock()
	m.held.record(d)
	m.mu.Unlock()
}

// LockAcquire implements drilldao.Metrics. A lock Redis failed to give or
// to release counts as an error: the work went on unlocked, or the lock was
// left to expire.
func (m *lockMetrics) LockAcquire(_ string, r drilldao.LockAcquireResult) {
	switch r {
	case drilldao.LockAcquireTaken:
		m.taken.Add(1)
	case drilldao.LockAcquireError:
		m.failed.Add(1)
	}
}

// LockRelease implements drilldao.Metrics: a lock found expired or owned by
// another at its release was lost while its holder worked.
func (m *lockMetrics) LockRelease(_ string, r drilldao.LockReleaseResult) {
	switch r {
	case drilldao.LockReleaseExpired, drilldao.LockReleaseNotOwner:
		m.releaseLost.Add(1)
	case drilldao.LockReleaseError:
		m.failed.Add(1)
	}
}

// LockRenewFailed implements drilldao.Metrics.
func (m *lockMetrics) LockRenewFailed(string) { m.renewFailed.Add(1) }

// CAS implements drilldao.Metrics.
func (m *lockMetrics) CAS(_ string, r drilldao.CASResult) {
	if r == drilldao.CASConflict {
		m.conflicts.Add(1)
	}
}
