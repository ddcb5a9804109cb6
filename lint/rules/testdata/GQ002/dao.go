package dao

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficient = errors.New("insufficient inventory")

func Deduct(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?", n, id) // want "GQ002"
	return err
}

const deductSQL = `UPDATE t_inventory
	SET inventory = inventory - ?
	WHERE id = ? AND inventory >= ?`

func DeductGuarded(ctx context.Context, db *sql.DB, id, n int64) error {
	res, err := db.ExecContext(ctx, deductSQL, n, id, n)
	if err != nil {
		return err
	}
	if k, err := res.RowsAffected(); err != nil || k != 1 {
		return ErrInsufficient
	}
	return nil
}

func DeductOne(ctx context.Context, db *sql.DB, id int64) error {
	res, err := db.ExecContext(ctx, `UPDATE t_inventory SET inventory = inventory - 1 WHERE id = ? AND inventory > 0`, id)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k != 1 {
		return ErrInsufficient
	}
	return nil
}

func DeductTwo(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, `UPDATE t_inventory SET inventory = inventory - 2 WHERE id = ? AND inventory > 0`, id) // want "GQ002 .*guards a decrement of 1 only"
	return err
}

func Restock(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory - VALUES(inventory)", id, n) // want "GQ002 ON DUPLICATE KEY UPDATE"
	return err
}
