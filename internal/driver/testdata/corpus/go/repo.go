package corpus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

const (
	tableStock = "t_sku_stock"
	// deduct guarded by available_stock >= ?
	deductSQL = "UPDATE t_sku_stock SET available_stock = available_stock - ?, version = version + 1 " +
		"WHERE sku_code = ? AND available_stock >= ?"
)

type Repo struct{ db *sql.DB }

func (r *Repo) Deduct(ctx context.Context, sku string, n int) error {
	res, err := r.db.ExecContext(ctx, deductSQL, n, sku, n)
	if err != nil {
		return err
	}
	switch affected, _ := res.RowsAffected(); affected {
	case 1:
		return nil
	default:
		return errors.New("insufficient")
	}
}

func (r *Repo) Release(ctx context.Context, sku string, n int) error {
	_, err := r.db.ExecContext(ctx, `
		UPDATE t_sku_stock
		   SET locked_stock = locked_stock - ?,   -- release the hold
		       available_stock = available_stock + ?,
		       version = version + 1
		 WHERE sku_code = ? AND locked_stock >= ?`, n, n, sku, n)
	return err
}

func (r *Repo) CAS(ctx context.Context, id int64, avail int, ver int64) (bool, error) {
	res, err := r.db.ExecContext(ctx,
		"UPDATE `t_sku_stock` SET `available_stock` = ?, `version` = `version` + 1 WHERE `id` = ? AND `version` = ?",
		avail, id, ver)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (r *Repo) Grant(ctx context.Context, reqID string, user int64) error {
	return r.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE t_coupon_grant SET state = 1, version = version + 1 WHERE request_id = ? AND state = 0", reqID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errors.New("already granted")
		}
		return nil
	})
}

func (r *Repo) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (r *Repo) ByIDs(ctx context.Context, ids []string) (*sql.Rows, error) {
	q := "SELECT id, sku_code FROM " + tableStock + " WHERE id IN (" + strings.Join(ids, ",") + ")"
	return r.db.QueryContext(ctx, q)
}

func (r *Repo) Points(ctx context.Context, user int64, delta int) error {
	q := fmt.Sprintf("UPDATE t_wallet SET points = points + %d, version = version + 1 WHERE user_id = ?", delta)
	_, err := r.db.ExecContext(ctx, q, user)
	return err
}

func (r *Repo) Spend(ctx context.Context, user int64, amount string) error {
	// guard:ignore GQ011 the ledger reconciles failed spends nightly
	_, err := r.db.ExecContext(ctx, "UPDATE t_wallet SET balance = balance - ?, version = version + 1 WHERE user_id = ? AND balance >= ?", amount, user, amount)
	return err
}

func (r *Repo) Reset(ctx context.Context) error {
	// guard:ignore GQ001
	_, err := r.db.ExecContext(ctx, "UPDATE t_sku_stock SET locked_stock = 0, version = version + 1")
	return err
}

type namedExecer interface {
	NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error)
}

// NamedDeduct uses sqlx named parameters: guarded, result compared.
func NamedDeduct(ctx context.Context, db namedExecer, sku string, n int) error {
	res, err := db.NamedExecContext(ctx, `UPDATE t_sku_stock SET available_stock = available_stock - :n, version = version + 1
		WHERE sku_code = :sku AND available_stock >= :n`, map[string]any{"sku": sku, "n": n})
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k != 1 {
		return errors.New("insufficient")
	}
	return nil
}
