package dao

import (
	"context"
	"database/sql"
)

// MarkAllRead moves every unread message of a user: as many rows as there
// are, none included. Its count is no refusal: silent.
func MarkAllRead(ctx context.Context, db *sql.DB, userID int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_message SET status = 'read' WHERE user_id = ? AND status = 'unread'", userID)
	return err
}

// PurgeRead deletes the read messages of a user: a bulk delete, silent.
func PurgeRead(ctx context.Context, db *sql.DB, userID int64) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t_message WHERE user_id = ? AND status = 'read'", userID)
	return err
}

// MarkRead moves one message, by its key: a refusal the code must see.
func MarkRead(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_message SET status = 'read' WHERE id = ? AND status = 'unread'", id) // want "GQ011 ExecContext runs a state transition of status"
	return err
}

// PayByNumber moves one order by its UNIQUE business key.
func PayByNumber(ctx context.Context, db *sql.DB, no string) error {
	_, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'paid', version = version + 1 WHERE order_no = ? AND status = 'new'", no) // want "GQ011 ExecContext runs a state transition of status"
	return err
}

// A table the schema does not know: its own id, or a business key, selects
// one row; another column selects a batch.
func UseCoupon(ctx context.Context, db *sql.DB, no string) error {
	_, err := db.ExecContext(ctx, "UPDATE t_coupon SET status = 'used' WHERE coupon_no = ? AND status = 'new'", no) // want "GQ011 ExecContext runs a state transition of status"
	return err
}

func UseCouponByID(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_coupon SET status = 'used' WHERE coupon_id = ? AND status = 'new'", id) // want "GQ011 ExecContext runs a state transition of status"
	return err
}

func ExpireCoupons(ctx context.Context, db *sql.DB, userID int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_coupon SET status = 'expired' WHERE user_id = ? AND status = 'new'", userID)
	return err
}
