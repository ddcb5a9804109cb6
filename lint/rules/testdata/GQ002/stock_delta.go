package dao

import (
	"context"
	"database/sql"
)

// AddStock moves the stock by delta: its callers decide the sign.
func AddStock(ctx context.Context, db *sql.DB, id int64, delta int) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?", delta, id) // want "GQ002 decrement of counter t_inventory.inventory by \\? \\(`inventory \\+ \\?`, where .*signed/order.go:12 passes -qty\\) has no WHERE conjunct"
	return err
}

// Safe twin: restocking, which every caller passes a positive amount.
func Restock(ctx context.Context, db *sql.DB, id int64, n int) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?", n, id)
	return err
}

// Guarded twin: the sum may not go below zero.
func AddStockGuarded(ctx context.Context, db *sql.DB, id int64, delta int) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ? WHERE id = ? AND inventory + ? >= 0", delta, id, delta)
	return err
}
