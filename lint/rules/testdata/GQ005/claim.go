package dao

import (
	"context"
	"database/sql"
	"errors"

	"gorm.io/gorm"
)

var errNotClaimed = errors.New("order not in the state to claim")

// Safe: the function first claims the order (pending -> shipping, the
// count checked), so it holds the row in the state it claimed; finishing
// the claim by key cannot undo a concurrent transition, since every other
// transition must leave pending, which the order no longer is.
func Ship(ctx context.Context, db *sql.DB, id int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'shipping' WHERE id = ? AND status = 'pending'", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errNotClaimed
	}
	if err := hand(ctx, id); err != nil {
		_, err = db.ExecContext(ctx, "UPDATE t_order SET status = 'failed' WHERE id = ?", id)
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE t_order SET status = 'shipped' WHERE id = ?", id)
	return err
}

// Unsafe twin: the claim's count is never looked at, so a second caller
// that lost the claim still finishes it.
func ShipUnchecked(ctx context.Context, db *sql.DB, id int64) error {
	if _, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'shipping' WHERE id = ? AND status = 'pending'", id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'shipped' WHERE id = ?", id) // want "GQ005"
	return err
}

// Unsafe twin: what the function claimed is the order, what it finishes
// is a payment, a row it never claimed.
func ShipAndSettle(ctx context.Context, db *sql.DB, id, paymentID int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'shipping' WHERE id = ? AND status = 'pending'", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errNotClaimed
	}
	_, err = db.ExecContext(ctx, "UPDATE t_payment SET status = 'settled' WHERE id = ?", paymentID) // want "GQ005"
	return err
}

// Unsafe twin: the write by key comes before the claim.
func ResetThenClaim(ctx context.Context, db *sql.DB, id int64) error {
	if _, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'pending' WHERE id = ?", id); err != nil { // want "GQ005"
		return err
	}
	res, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'shipping' WHERE id = ? AND status = 'pending'", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errNotClaimed
	}
	return nil
}

// Unsafe twin: the claim selects orders by product, the write picks one by
// its number: not the row the claim holds.
func ClaimByProduct(ctx context.Context, db *sql.DB, productID int64, no string) error {
	res, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'shipping' WHERE product_id = ? AND status = 'pending'", productID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotClaimed
	}
	_, err = db.ExecContext(ctx, "UPDATE t_order SET status = 'shipped' WHERE order_no = ?", no) // want "GQ005"
	return err
}

// Safe: the same with GORM, the claim's RowsAffected compared.
func gormMerge(db *gorm.DB, id uint) error {
	res := db.Model(&TOrder{}).Where("id = ? AND status = ?", id, "pending").Update("status", "merging")
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errNotClaimed
	}
	return db.Model(&TOrder{}).Where("id = ?", id).Update("status", "merged").Error
}

func hand(ctx context.Context, id int64) error { return nil }
