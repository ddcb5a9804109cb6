// Package dao is the shop's data access layer: stock deduction, inventory
// moves and reservations, with the safe and the unsafe way side by side.
package dao

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrInsufficient means there is not enough stock for the deduction.
var ErrInsufficient = errors.New("insufficient stock")

// Store wraps the shop database.
type Store struct{ db *sql.DB }

// NewStore returns a Store over db.
func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// deductStock is the one guarded statement: the database decides.
const deductStock = `
	UPDATE t_product
	   SET stock = stock - ?, version = version + 1
	 WHERE id = ? AND stock >= ?`

// DeductStock takes n units of a product; success is RowsAffected == 1.
func (s *Store) DeductStock(ctx context.Context, productID, n int64) error {
	// safe: conditional UPDATE, version bumped, RowsAffected compared.
	res, err := s.db.ExecContext(ctx, deductStock, n, productID, n)
	if err != nil {
		return fmt.Errorf("deduct stock: %w", err)
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

// DeductStockAsync fires the guarded UPDATE and forgets whether it matched.
func (s *Store) DeductStockAsync(ctx context.Context, productID, n int64) error {
	// unsafe GQ011: the UPDATE may match no row and nobody looks.
	_, err := s.db.ExecContext(ctx, "UPDATE t_product SET stock = stock - ?, version = version + 1 WHERE id = ? AND stock >= ?", n, productID, n)
	return err
}

// MoveInventory takes units out of one warehouse under the Redis lock.
func (s *Store) MoveInventory(ctx context.Context, productID int64, warehouseID int, n int) error {
	// unsafe GQ002: nothing in WHERE stops the count going below zero when the lock expires.
	res, err := s.db.ExecContext(ctx, `UPDATE t_inventory SET inventory = inventory - ?
		WHERE product_id = ? AND warehouse_id = ?`, n, productID, warehouseID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("move inventory: %d rows, %v", n, err)
	}
	return nil
}

// SetInventory writes a count computed from an earlier read.
func (s *Store) SetInventory(ctx context.Context, id int64, count int) error {
	var current int
	// safe: a plain read.
	if err := s.db.QueryRowContext(ctx, "SELECT inventory FROM t_inventory WHERE id = ?", id).Scan(&current); err != nil {
		return err
	}
	// unsafe GQ003: an absolute write of a counter without a version predicate loses concurrent updates.
	res, err := s.db.ExecContext(ctx, "UPDATE t_inventory SET inventory = ? WHERE id = ?", current-count, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("set inventory %d: not found", id)
	}
	return nil
}

// LockProduct reads a product row under a row lock.
func (s *Store) LockProduct(ctx context.Context, tx *sql.Tx, id int64) (int, error) {
	var stock int
	// unsafe GQ007: a row lock on one primary coordinates nothing across replicas or shards.
	err := tx.QueryRowContext(ctx, "SELECT stock FROM t_product WHERE id = ? FOR UPDATE", id).Scan(&stock)
	return stock, err
}

// AdjustColumn adjusts any counter column by name.
func (s *Store) AdjustColumn(ctx context.Context, column string, id int64) error {
	// unsafe GQ009: SQL built at run time cannot be checked.
	q := fmt.Sprintf("UPDATE t_product SET %s = %s - 1, version = version + 1 WHERE id = ?", column, column)
	_, err := s.db.ExecContext(ctx, q, id)
	return err
}
