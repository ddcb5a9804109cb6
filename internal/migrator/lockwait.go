package migrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// DefaultDDLLockTimeout bounds each wait of a migration's statement for a
// lock (the table's metadata lock, mostly), and DefaultDDLLockAttempts is how
// many times a step waits before it gives up.
const (
	DefaultDDLLockTimeout  = 5 * time.Second
	DefaultDDLLockAttempts = 3
)

// ddlRetryPause is the pause between two attempts of a step: long enough
// for the queries that queued behind the waiting DDL to run.
const ddlRetryPause = 500 * time.Millisecond

// errLockWaitTimeout is ER_LOCK_WAIT_TIMEOUT, for a metadata lock
// (lock_wait_timeout) as for a row lock (innodb_lock_wait_timeout).
const errLockWaitTimeout = 1205

// LockWaitError is returned when a migration's statement could not get its
// lock within the DDL lock timeout, attempt after attempt. The statement
// never ran: the version is where it was before the step, clean.
type LockWaitError struct {
	// File is the migration whose statement waited.
	File string
	// Timeout is the wait of one attempt, Attempts how many were made.
	Timeout  time.Duration
	Attempts int
	// Version is the clean version the database stays at.
	Version int
	// Holders are the oldest open transactions other than guard's, the
	// likeliest holders of the lock; empty when none could be read.
	Holders []Holder
	// HoldersErr is why the holders could not be read, if they could not.
	HoldersErr error
	// Cause is the server's error.
	Cause error
}

// Holder is an open transaction on the server.
type Holder struct {
	ID   int64  `json:"id"`
	User string `json:"user"`
	Host string `json:"host"`
	DB   string `json:"db,omitempty"`
	// Open is how long the transaction has been open, in seconds.
	Open    int64  `json:"open_seconds"`
	Command string `json:"command,omitempty"`
	// Query is the statement the session runs, else the last one it ran
	// when performance_schema records it; empty when unknown.
	Query string `json:"query,omitempty"`
}

// String describes the session: "session 42 (app@10.0.0.5:5123, db shop),
// transaction open 31s, idle, last statement: SELECT …".
func (h Holder) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "session %d (%s@%s", h.ID, h.User, h.Host)
	if h.DB != "" {
		fmt.Fprintf(&b, ", db %s", h.DB)
	}
	fmt.Fprintf(&b, "), transaction open %s", time.Duration(h.Open)*time.Second)
	if h.Command == "Sleep" {
		b.WriteString(", idle")
	}
	if h.Query != "" {
		fmt.Fprintf(&b, ", statement: %s", h.Query)
	}
	return b.String()
}

// Error says what waited, for how long, who holds the lock and that nothing
// was applied.
func (e *LockWaitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: gave up after %d wait(s) of %s for a lock (%v); nothing was applied, version %s stays clean",
		displayFile(e.File), e.Attempts, e.Timeout, e.Cause, State{Version: e.Version})
	switch {
	case len(e.Holders) > 0:
		fmt.Fprintf(&b, "; the oldest open transaction is %s", e.Holders[0])
	case e.HoldersErr != nil:
		fmt.Fprintf(&b, "; cannot tell which session holds the lock: %v", e.HoldersErr)
	default:
		b.WriteString("; no open InnoDB transaction found: the lock is held by a long query or LOCK TABLES (SHOW PROCESSLIST)")
	}
	return b.String()
}

// Unwrap returns the server's error.
func (e *LockWaitError) Unwrap() error { return e.Cause }

// Explain tells how to get the migration through.
func (e *LockWaitError) Explain() string {
	end := "end the transaction that holds the table"
	if len(e.Holders) > 0 {
		end = fmt.Sprintf("end session %d's transaction (COMMIT or ROLLBACK there, or KILL %d)", e.Holders[0].ID, e.Holders[0].ID)
	}
	return fmt.Sprintf("A DDL statement waits for every open transaction that touched its table, and every later query on the table "+
		"queues behind it: guard gives up after --ddl-lock-timeout instead of stalling them. Run the migration again once it can get the lock: %s, "+
		"or run it at a quieter time; --ddl-lock-timeout longer waits longer.", end)
}

// ddlLockTimeout returns the lock_wait_timeout of the migration connection
// in whole seconds (the server's unit), 0 when the server's own applies.
func (m *Migrator) ddlLockTimeout() int64 {
	d := m.opts.DDLLockTimeout
	switch {
	case d < 0:
		return 0
	case d == 0:
		d = DefaultDDLLockTimeout
	}
	return max(1, int64(math.Ceil(d.Seconds())))
}

// runStep runs one step with golang-migrate (n is +1 or -1) under the DDL
// lock timeout. A step whose file holds one statement gets the timeout:
// when the statement times out waiting for a lock it never ran, so the
// dirty version golang-migrate recorded before running it is put back to
// the version before the step and the step is tried again, up to
// DefaultDDLLockAttempts times. A file of several statements runs under the
// server's own lock_wait_timeout: a timeout on its second statement would
// leave the first applied and the version dirty, worse than the wait.
func (m *Migrator) runStep(ctx context.Context, mg *migrate.Migrate, conn *sql.Conn, step Step, n int) error {
	secs := m.ddlLockTimeout()
	if secs > 0 && !singleStatement(step.File) {
		secs = 0
		m.logf("%s holds several statements: it runs without --ddl-lock-timeout (one statement per file gets it)\n", displayFile(step.File))
	}
	if secs == 0 {
		return steps(mg, n)
	}
	// The DSN may set its own session value: put it back afterwards.
	var was int64
	if err := conn.QueryRowContext(ctx, "SELECT @@SESSION.lock_wait_timeout").Scan(&was); err != nil {
		return fmt.Errorf("read lock_wait_timeout: %w", err)
	}
	if err := setLockWaitTimeout(ctx, conn, secs); err != nil {
		return err
	}
	defer setLockWaitTimeout(context.WithoutCancel(ctx), conn, was)
	before := int(step.Version)
	if step.Up {
		before = previous(m.migrations, before)
	}
	timeout := time.Duration(secs) * time.Second
	for attempt := 1; ; attempt++ {
		err := steps(mg, n)
		if err == nil || !ranAndTimedOut(err) {
			return err
		}
		// The statement never ran: golang-migrate's dirty mark is all
		// the step left.
		if ferr := mg.Force(before); ferr != nil {
			return errors.Join(err, fmt.Errorf("restore version %s after the lock wait: %w", State{Version: before}, cause(ferr)))
		}
		holders, herr := openTransactions(context.WithoutCancel(ctx), m.db, conn)
		if attempt >= DefaultDDLLockAttempts || ctx.Err() != nil {
			return &LockWaitError{File: step.File, Timeout: timeout, Attempts: attempt, Version: before,
				Holders: holders, HoldersErr: herr, Cause: cause(err)}
		}
		who := "no open transaction found"
		if len(holders) > 0 {
			who = "the oldest open transaction is " + holders[0].String()
		}
		m.logf("%s: waited %s for a lock (attempt %d of %d), %s; trying again\n",
			displayFile(step.File), timeout, attempt, DefaultDDLLockAttempts, who)
		select {
		case <-ctx.Done():
		case <-time.After(ddlRetryPause):
		}
	}
}

// steps is mg.Steps(n), with "no change" a success.
func steps(mg *migrate.Migrate, n int) error {
	if err := mg.Steps(n); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return err
	}
	return nil
}

// ranAndTimedOut reports whether err is golang-migrate's failure to run a
// file (not to record the version) because a statement timed out waiting
// for a lock.
func ranAndTimedOut(err error) bool {
	var de database.Error
	if !errors.As(err, &de) {
		return false
	}
	var me *mysql.MySQLError
	return errors.As(de.OrigErr, &me) && me.Number == errLockWaitTimeout
}

// setLockWaitTimeout sets the session's lock_wait_timeout.
func setLockWaitTimeout(ctx context.Context, conn *sql.Conn, secs int64) error {
	if _, err := conn.ExecContext(ctx, "SET SESSION lock_wait_timeout = ?", secs); err != nil {
		return fmt.Errorf("set lock_wait_timeout: %w", err)
	}
	return nil
}

// singleStatement reports whether the file holds at most one statement, as
// the server will cut it. A file that cannot be read counts as several.
func singleStatement(file string) bool {
	if file == "" {
		return true
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	return len(sqlparse.SplitScript(strings.TrimPrefix(string(b), "\ufeff"))) <= 1
}

// maxHolders is how many open transactions a LockWaitError names.
const maxHolders = 3

// openTransactions returns the oldest open InnoDB transactions of the
// server, other than those of guard's own connections, with their session
// from the processlist: a DDL waits for the metadata lock of every open
// transaction that touched its table, and the oldest is the likeliest to
// hold it (MariaDB's METADATA_LOCK_INFO needs a plugin; MySQL's
// performance_schema.metadata_locks needs an instrument turned on). It
// needs the PROCESS privilege to see other users' transactions.
func openTransactions(ctx context.Context, db *sql.DB, self *sql.Conn) ([]Holder, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var selfID int64
	if err := self.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&selfID); err != nil {
		return nil, fmt.Errorf("read the connection id: %w", err)
	}
	rows, err := db.QueryContext(ctx, `SELECT t.trx_mysql_thread_id, COALESCE(p.USER, ''), COALESCE(p.HOST, ''), COALESCE(p.DB, ''),
		  TIMESTAMPDIFF(SECOND, t.trx_started, NOW()), COALESCE(p.COMMAND, ''), COALESCE(p.INFO, t.trx_query, '')
		FROM information_schema.INNODB_TRX t
		LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
		WHERE t.trx_mysql_thread_id NOT IN (?, CONNECTION_ID())
		ORDER BY t.trx_started, t.trx_mysql_thread_id LIMIT ?`, selfID, maxHolders)
	if err != nil {
		return nil, fmt.Errorf("read open transactions: %w", err)
	}
	defer rows.Close()
	var hs []Holder
	for rows.Next() {
		var h Holder
		if err := rows.Scan(&h.ID, &h.User, &h.Host, &h.DB, &h.Open, &h.Command, &h.Query); err != nil {
			return nil, fmt.Errorf("read open transactions: %w", err)
		}
		hs = append(hs, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read open transactions: %w", err)
	}
	for i := range hs {
		if hs[i].Query == "" {
			hs[i].Query = lastStatement(ctx, db, hs[i].ID)
		}
		hs[i].Query = shortQuery(hs[i].Query)
	}
	return hs, nil
}

// lastStatement returns the last statement of a session from
// performance_schema, empty when it is off or does not record it.
func lastStatement(ctx context.Context, db *sql.DB, id int64) string {
	var q sql.NullString
	err := db.QueryRowContext(ctx, `SELECT s.SQL_TEXT FROM performance_schema.events_statements_current s
		JOIN performance_schema.threads th ON th.THREAD_ID = s.THREAD_ID
		WHERE th.PROCESSLIST_ID = ? ORDER BY s.EVENT_ID DESC LIMIT 1`, id).Scan(&q)
	if err != nil {
		return ""
	}
	return q.String
}

// maxQueryLen bounds the statement text a Holder shows.
const maxQueryLen = 200

// shortQuery puts a statement on one line, without control bytes, cut to
// maxQueryLen characters.
func shortQuery(q string) string {
	q = strings.Join(strings.FieldsFunc(q, func(r rune) bool { return r < ' ' || r == ' ' || r == 0x7f }), " ")
	if r := []rune(q); len(r) > maxQueryLen {
		q = string(r[:maxQueryLen]) + "…"
	}
	return q
}
