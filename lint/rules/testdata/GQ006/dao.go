package dao

import (
	"context"
	"database/sql"
)

func DeductClamped(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = GREATEST(inventory - ?, 0) WHERE id = ?", n, id) // want "GQ006"
	return err
}

func Release(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET reserved = GREATEST(reserved - ?, 0) WHERE id = ?", n, id)
	return err
}

func ReleaseBatch(ctx context.Context, db *sql.DB, a, na, b, nb int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = CASE id WHEN ? THEN GREATEST(inventory - ?, 0) WHEN ? THEN GREATEST(inventory - ?, 0) END WHERE id IN (?, ?)", a, na, b, nb, a, b) // want "GQ006 .*batched CASE"
	return err
}
