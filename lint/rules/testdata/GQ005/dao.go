package dao

import (
	"context"
	"database/sql"
	"errors"
)

var ErrStateChanged = errors.New("order state changed")

func MarkPaid(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'paid' WHERE id = ?", id) // want "GQ005"
	return err
}

func Transition(ctx context.Context, db *sql.DB, id int64, from, to string) error {
	res, err := db.ExecContext(ctx, "UPDATE t_order SET status = ? WHERE id = ? AND status = ?", to, id, from)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrStateChanged
	}
	return nil
}
