package dao

import (
	"context"
	"database/sql"
)

// MoveClamped moves the stock by delta, floored at zero: its callers
// decide the sign, and Place passes a negated quantity.
func MoveClamped(ctx context.Context, db *sql.DB, id int64, delta int) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = GREATEST(inventory + ?, 0) WHERE id = ?", delta, id) // want "GQ006 decrement of counter t_inventory.inventory is clamped \\(GREATEST\\(`inventory`\\+\\?, 0\\), where .*stock_delta.go:23 passes -qty\\)"
	return err
}

// Safe twin: a restock floored at zero adds what every caller passes, a
// positive amount.
func RestockClamped(ctx context.Context, db *sql.DB, id int64, n int) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = GREATEST(inventory + ?, 0) WHERE id = ?", n, id)
	return err
}

func Place(ctx context.Context, db *sql.DB, id int64, qty int) error {
	return MoveClamped(ctx, db, id, -qty)
}

func Return(ctx context.Context, db *sql.DB, id int64, qty int) error {
	return RestockClamped(ctx, db, id, qty)
}
