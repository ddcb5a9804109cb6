package fixture

import (
	"context"
	"database/sql"
)

// The same check on a statement of Go code.
func reconcile(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t_order_line_items_kept_for_the_reconciliation_of_partner_invoice WHERE id = ?", id) // want "^GQ009 not checked: the server refuses this statement: the table name t_order_line_items_kept_for_the_reconciliation_of_partner_invoice is 65 characters long"
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "DELETE FROM t_order_line_items_kept_for_the_reconciliation_of_partner_invoic WHERE id = ?", id)
	return err
}
