package dbtest

import (
	"context"
	"testing"
	"time"
)

// HoldTransaction opens a transaction on db that runs query (a read of a
// table, say) and keeps it open for d, as a long report or a forgotten
// console session does: its metadata lock makes every DDL on the table
// wait. It returns the session's id, for KILL; the transaction is rolled
// back after d or when the test ends, whichever comes first.
func (db *DB) HoldTransaction(t testing.TB, d time.Duration, query string) int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	end := func() {
		conn.ExecContext(ctx, "ROLLBACK")
		conn.Close()
	}
	timer := time.AfterFunc(d, end)
	t.Cleanup(func() {
		if timer.Stop() {
			end()
		}
	})
	var id int64
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	return id
}
