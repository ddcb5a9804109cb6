package dao

import (
	"context"
	"database/sql"
	"log"
)

// Lock, read, compute, write: the row lock holds only on the primary that ran it.
func deductLocked(ctx context.Context, tx *sql.Tx, id, n int64) error {
	var inventory int64
	err := tx.QueryRowContext(ctx, "SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE", id).Scan(&inventory) // want "GQ007 SELECT … FOR UPDATE takes a row lock"
	if err != nil {
		return err
	}
	log.Printf("select for update held on %d", id)
	_, err = tx.ExecContext(ctx, "UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? AND version = ?", inventory-n, id, 0)
	return err
}
