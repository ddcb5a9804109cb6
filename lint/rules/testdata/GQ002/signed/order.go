package signed

import (
	"context"
	"database/sql"

	"shop/dao"
)

// Place takes the ordered quantity out of stock through AddStock.
func Place(ctx context.Context, db *sql.DB, id int64, qty int) error {
	return dao.AddStock(ctx, db, id, -qty)
}

// PlaceChecked takes it out through the guarded twin.
func PlaceChecked(ctx context.Context, db *sql.DB, id int64, qty int) error {
	return dao.AddStockGuarded(ctx, db, id, -qty)
}

// Return puts it back.
func Return(ctx context.Context, db *sql.DB, id int64, qty int) error {
	return dao.Restock(ctx, db, id, qty)
}
