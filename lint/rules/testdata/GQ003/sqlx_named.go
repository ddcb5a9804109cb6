package repo

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"
)

var errConflict = errors.New("conflict")

// sqlxItem is bound by name: sqlx maps :inventory to the db tag.
type sqlxItem struct {
	ID      int64 `db:"id"`
	Stock   int   `db:"inventory"`
	Version int64 `db:"version"`
}

// The struct's counter is computed from the read; the finding at the SQL
// names it.
func namedAfterRead(ctx context.Context, db *sqlx.DB, id int64, n int) error {
	var it sqlxItem
	if err := db.GetContext(ctx, &it, "SELECT id, inventory, version FROM t_inventory WHERE id = ?", id); err != nil {
		return err
	}
	it.Stock = it.Stock - n
	_, err := db.NamedExecContext(ctx, "UPDATE t_inventory SET inventory = :inventory WHERE id = :id", it) // want "^GQ003 counter t_inventory.inventory is set to an absolute value .*the value bound is it.Stock - n, computed from it read by GetContext at line 23$"
	return err
}

// Safe twin: a version compare-and-set.
func namedCAS(ctx context.Context, db *sqlx.DB, id int64, n int) error {
	var it sqlxItem
	if err := db.GetContext(ctx, &it, "SELECT id, inventory, version FROM t_inventory WHERE id = ?", id); err != nil {
		return err
	}
	it.Stock = it.Stock - n
	res, err := db.NamedExecContext(ctx, "UPDATE t_inventory SET inventory = :inventory, version = version + 1 WHERE id = :id AND version = :version", it)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k != 1 {
		return errConflict
	}
	return nil
}
