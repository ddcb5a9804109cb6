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

// A batch of two rows in one statement: each CASE branch is an unguarded decrement.
const deductPairSQL = `UPDATE t_inventory -- want "GQ002 .*in a batched CASE"
	SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END
	WHERE id IN (?, ?)`

func DeductPair(ctx context.Context, db *sql.DB, a, na, b, nb int64) error {
	res, err := db.ExecContext(ctx, deductPairSQL, a, na, b, nb, a, b)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k != 2 {
		return ErrInsufficient
	}
	return nil
}

// The batch guarded per row.
func DeductPairGuarded(ctx context.Context, db *sql.DB, a, na, b, nb int64) error {
	res, err := db.ExecContext(ctx, `UPDATE t_inventory
		SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END
		WHERE id IN (?, ?) AND inventory >= CASE id WHEN ? THEN ? WHEN ? THEN ? END`, a, na, b, nb, a, b, a, na, b, nb)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k != 2 {
		return ErrInsufficient
	}
	return nil
}
