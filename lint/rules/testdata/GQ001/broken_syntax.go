package dao

import (
	"context"
	"database/sql"
)

// The loop lacks its opening brace, so the file does not compile; the code
// go/parser recovers around the error is still checked.
func closeOrders(ctx context.Context, db *sql.DB, ids []int64) error {
	for _, id := range ids
		if _, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'closed' WHERE id = ?", id); err != nil {
			return err
		}
	}
	return nil
}

func closeEveryOrder(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'closed'") // want "GQ001"
	return err
}
