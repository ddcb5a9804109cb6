package dao

import (
	"context"
	"database/sql"
	"errors"
)

var ErrConflict = errors.New("concurrent update")

// SaveStock writes back a value read earlier: a lost update.
func SaveStock(ctx context.Context, db *sql.DB, id, stock int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = ? WHERE id = ?", stock, id) // want "GQ003"
	return err
}

// SaveStockCAS writes back a value read earlier with its version.
func SaveStockCAS(ctx context.Context, db *sql.DB, id, stock, version int64) error {
	res, err := db.ExecContext(ctx,
		"UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? AND version = ?",
		stock, id, version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrConflict
	}
	return nil
}
