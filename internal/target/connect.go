package target

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/driverlog"
)

// ConnectOptions says how to open a pool on a target.
type ConnectOptions struct {
	// Conns bounds the open connections; 0 is one, so that every statement
	// sees the same session.
	Conns int
	// Adjust, when set, changes guard's copy of the driver configuration
	// before connecting (a longer read timeout, interpolated parameters).
	Adjust func(*mysql.Config)
	// Log receives the driver's own log lines, redacted and prefixed with
	// the target's name; nil leaves the driver's default logger.
	Log io.Writer
}

// Connect opens a pool on t and pings it, so that an unreachable server
// fails before anything starts: the server has the connect timeout to send
// its greeting, and as long again to let the login through. Its errors
// start with "connect: " and are redacted with t's passwords (they name the
// address of a server that did not answer in time).
func (t *Target) Connect(ctx context.Context, o ConnectOptions) (*sql.DB, error) {
	red := NewRedactor(t)
	cfg := t.Config()
	if o.Adjust != nil {
		o.Adjust(cfg)
	}
	if o.Log != nil {
		cfg.Logger = driverlog.MySQL(red.Writer(o.Log), "guard: "+t.Name()+": driver: ")
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %s", red.Redact(err.Error()))
	}
	db := sql.OpenDB(conn)
	conns := max(o.Conns, 1)
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	timeout := cfg.Timeout
	pctx, cancel := context.WithTimeout(ctx, 2*timeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		var none *NoAnswerError
		if !errors.As(err, &none) && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = &NoAnswerError{Addr: cfg.Addr, Within: timeout, stage: stageLogin}
		}
		return nil, fmt.Errorf("connect: %s", red.Redact(err.Error()))
	}
	return db, nil
}
