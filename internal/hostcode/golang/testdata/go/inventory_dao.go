// Package dao is a data-access layer for the shop's stock and orders, written
// the way such code is found in the wild: some writes are guarded, some rely
// on a Redis lock alone.
package dao

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// ErrInsufficient is returned when the stock cannot cover a deduction.
var ErrInsufficient = errors.New("insufficient stock")

const inventoryColumns = "id, product_id, inventory, status, version"

const (
	getInventory = "SELECT " + inventoryColumns + " FROM t_inventory WHERE id = ?"

	// deductGuarded is one conditional UPDATE: the database refuses to oversell.
	deductGuarded = `
		UPDATE t_inventory
		   SET inventory = inventory - ?, version = version + 1
		 WHERE id = ? AND inventory >= ?`
)

type InventoryDAO struct {
	db *sqlx.DB
}

type Inventory struct {
	ID        int64  `db:"id"`
	ProductID int64  `db:"product_id"`
	Inventory int64  `db:"inventory"`
	Status    string `db:"status"`
	Version   int64  `db:"version"`
}

func (d *InventoryDAO) Get(ctx context.Context, id int64) (*Inventory, error) {
	var inv Inventory
	if err := d.db.GetContext(ctx, &inv, getInventory, id); err != nil {
		return nil, fmt.Errorf("select inventory %d: %w", id, err)
	}
	return &inv, nil
}

// Deduct is guarded: the WHERE clause and the RowsAffected check together.
func (d *InventoryDAO) Deduct(ctx context.Context, id, n int64) error {
	res, err := d.db.ExecContext(ctx, deductGuarded, n, id, n)
	if err != nil {
		return fmt.Errorf("update inventory: %w", err)
	}
	affected, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if affected != 1 {
		return ErrInsufficient
	}
	return nil
}

// DeductUnderLock trusts the Redis lock: no condition, result ignored.
func (d *InventoryDAO) DeductUnderLock(ctx context.Context, id, n int64) error {
	_, err := d.db.ExecContext(ctx,
		"UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?", n, id)
	return err
}

// SetStatus checks the count with a switch.
func (d *InventoryDAO) SetStatus(ctx context.Context, id int64, from, to string) error {
	q := "UPDATE t_inventory SET status = ?, version = version + 1 WHERE id = ? AND status = ?"
	res, err := d.db.ExecContext(ctx, q, to, id, from)
	if err != nil {
		return err
	}
	switch n, _ := res.RowsAffected(); n {
	case 1:
		return nil
	default:
		return errors.New("state changed")
	}
}

// Search builds its WHERE clause at run time.
func (d *InventoryDAO) Search(ctx context.Context, filters map[string]any) ([]Inventory, error) {
	var where []string
	var args []any
	for col, v := range filters {
		where = append(where, col+" = ?")
		args = append(args, v)
	}
	q := fmt.Sprintf("SELECT %s FROM t_inventory WHERE %s", inventoryColumns, strings.Join(where, " AND "))
	var out []Inventory
	err := d.db.SelectContext(ctx, &out, q, args...)
	return out, err
}

// Restock runs in a transaction and returns the result to its caller.
func (d *InventoryDAO) Restock(ctx context.Context, tx *sqlx.Tx, id, n int64) (sql.Result, error) {
	// guard:ignore GQ004 restock is serialised by the warehouse job
	return tx.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?", n, id)
}

// Purge deletes by table name.
func (d *InventoryDAO) Purge(ctx context.Context, table string) {
	d.db.MustExecContext(ctx, "DELETE FROM "+table+" WHERE status = 'deleted'")
}

// PayOrder marks an order paid inside a closure run by a transaction helper.
func (d *InventoryDAO) PayOrder(ctx context.Context, orderNo string) error {
	return withTx(ctx, d.db, func(tx *sqlx.Tx) error {
		res, err := tx.NamedExecContext(ctx,
			`UPDATE t_order SET status = 'paid', version = version + 1
			  WHERE order_no = :order_no AND status = 'created'`,
			map[string]any{"order_no": orderNo})
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errors.New("order not in created state")
		}
		return nil
	})
}

func withTx(ctx context.Context, db *sqlx.DB, fn func(*sqlx.Tx) error) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
