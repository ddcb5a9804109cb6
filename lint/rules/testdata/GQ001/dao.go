package dao

import (
	"context"
	"database/sql"
)

func CloseAllOrders(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'closed'") // want "GQ001"
	return err
}

func PurgeLogs(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `DELETE FROM t_log WHERE 1 = 1`) // want "GQ001 .*always-true"
	return err
}

func CloseOrder(ctx context.Context, db *sql.DB, id int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'closed' WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return sql.ErrNoRows
	}
	return nil
}

func PurgeOld(ctx context.Context, db *sql.DB, before string) error {
	_, err := db.ExecContext(ctx, `
		DELETE FROM t_log
		WHERE created_at < ?`, before)
	return err
}
