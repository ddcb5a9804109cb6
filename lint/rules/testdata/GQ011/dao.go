package dao

import (
	"context"
	"database/sql"
	"errors"
	"log"
)

var errInsufficient = errors.New("insufficient inventory")

// The result compared with ==: checked.
func deductEq(ctx context.Context, db *sql.DB, id, n int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", n, id, n)
	if err != nil {
		return err
	}
	affected, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if affected == 1 {
		return nil
	}
	return errInsufficient
}

// The result compared with !=: checked.
func deductNe(ctx context.Context, db *sql.DB, id, n int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", n, id, n)
	if err != nil {
		return err
	}
	if affected, _ := res.RowsAffected(); affected != 1 {
		return errInsufficient
	}
	return nil
}

// The result compared with >: checked.
func deductGt(db *sql.DB, id, n int64) (bool, error) {
	res, err := db.Exec("UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", n, id, n)
	if err != nil {
		return false, err
	}
	affected, err := res.RowsAffected()
	return affected > 0, err
}

// The result switched on: checked.
func casSwitch(ctx context.Context, tx *sql.Tx, id, inventory, version int64) error {
	res, err := tx.ExecContext(ctx, "UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? AND version = ?", inventory, id, version)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	switch n {
	case 1:
		return nil
	default:
		return errors.New("version conflict")
	}
}

// The result returned: the caller compares it.
func payOrder(ctx context.Context, db *sql.DB, id int64) (sql.Result, error) {
	return db.ExecContext(ctx, "UPDATE t_order SET status = 'paid', version = version + 1 WHERE id = ? AND status = 'new'", id)
}

// The result discarded with _.
func deductDiscarded(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", n, id, n) // want "^GQ011 ExecContext runs a guarded decrement of inventory but the result is discarded"
	return err
}

// The result discarded by calling Exec as a statement.
func deductStatement(db *sql.DB, id int64) {
	db.Exec("UPDATE t_inventory SET inventory = inventory - 1 WHERE id = ? AND inventory > 0", id) // want "GQ011 Exec runs a guarded decrement of inventory but the result is discarded"
}

// Safe twin: an increment nothing can refuse (a restock whose WHERE names
// the key only) has no answer worth comparing.
func restock(ctx context.Context, db *sql.DB, id, n int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ?, version = version + 1 WHERE id = ?", n, id)
	if err != nil {
		return err
	}
	affected, _ := res.RowsAffected()
	log.Printf("restocked %d rows", affected)
	return nil
}

// The result kept but its RowsAffected never compared: only logged, while
// the increment is bounded by a capacity the row may not have room for.
func restockBounded(ctx context.Context, db *sql.DB, id, n int64) error {
	res, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ?, version = version + 1 WHERE id = ? AND inventory + ? <= 1000", n, id, n) // want "GQ011 ExecContext runs a write of counter inventory but its RowsAffected[(][)] is never compared"
	if err != nil {
		return err
	}
	affected, _ := res.RowsAffected()
	log.Printf("restocked %d rows", affected)
	return nil
}

// A version CAS whose result is dropped.
func casDiscarded(ctx context.Context, tx *sql.Tx, id int64, note string, version int64) error {
	_, err := tx.ExecContext(ctx, "UPDATE t_order SET note = ?, version = version + 1 WHERE id = ? AND version = ?", note, id, version) // want "GQ011 ExecContext runs a version CAS on version but the result is discarded"
	return err
}

// A state transition whose result is dropped, the SQL in a multi-line raw string.
const shipOrder = `
	UPDATE t_order -- want "GQ011 ExecContext runs a state transition of status but the result is discarded"
	   SET status = 'shipped', version = version + 1
	 WHERE id = ? AND status IN ('paid', 'packed')`

func ship(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, shipOrder, id)
	return err
}

// A DELETE conditional on the version or on the state.
func deleteCAS(ctx context.Context, db *sql.DB, id, version int64) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t_order WHERE id = ? AND version = ?", id, version) // want "GQ011 ExecContext runs a version CAS on version but the result is discarded"
	return err
}

func deleteDraft(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t_order WHERE id = ? AND status = 'draft'", id) // want "GQ011 ExecContext runs a DELETE conditional on status"
	return err
}

// A table the schema does not know: the policy's column names decide.
func spendPoints(ctx context.Context, db *sql.DB, user, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_wallet w SET w.points = w.points - ? WHERE w.user_id = ? AND w.points >= ?", n, user, n) // want "GQ011 ExecContext runs a guarded decrement of points"
	return err
}

// Plain writes: their success is err == nil.
func setNote(ctx context.Context, db *sql.DB, id int64, note string) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET note = ? WHERE id = ?", note, id)
	return err
}

func forceStatus(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_order SET status = 'cancelled', version = version + 1 WHERE id = ?", id)
	return err
}

func createOrder(ctx context.Context, db *sql.DB, id int64, no string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO t_order (id, order_no) VALUES (?, ?)", id, no)
	return err
}

func purge(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "DELETE FROM t_order WHERE id = ?", id)
	return err
}

// A query, not an Exec: no result to check.
func lockedRead(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var v int64
	err := db.QueryRowContext(ctx, "SELECT inventory FROM t_inventory WHERE id = ?", id).Scan(&v)
	return v, err
}

// Suppressed, with a reason.
func resetDemo(ctx context.Context, db *sql.DB) error {
	// guard:ignore GQ011 demo data reset, no concurrent writers
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = 100 WHERE id = 1")
	return err
}

// Safe twin: AliSQL/PolarDB's TARGET_AFFECT_ROW(1) hint makes the server
// fail the statement when it changes no row, so err carries the refusal.
func deductHinted(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE /*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW (1) */ t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", n, id, n)
	return err
}

// A hint the server does not enforce the count with is no such answer.
func deductOtherHint(ctx context.Context, db *sql.DB, id, n int64) error {
	_, err := db.ExecContext(ctx, "UPDATE /*+ MAX_EXECUTION_TIME(100) */ t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", n, id, n) // want "GQ011 ExecContext runs a guarded decrement of inventory but the result is discarded"
	return err
}
