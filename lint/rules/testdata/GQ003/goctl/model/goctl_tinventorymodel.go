package model

import (
	"context"

	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

// The file people extend: a guarded decrement next to the generated methods.
type (
	TInventoryModel interface {
		DecrInventory(ctx context.Context, id, n int64) error
	}

	customTInventoryModel struct {
		*defaultTInventoryModel
	}
)

func NewTInventoryModel(conn sqlx.SqlConn) TInventoryModel {
	return &customTInventoryModel{defaultTInventoryModel: newTInventoryModel(conn)}
}

// DecrInventory is its own statement: the decrement is guarded in SQL.
func (m *customTInventoryModel) DecrInventory(ctx context.Context, id, n int64) error {
	res, err := m.conn.ExecCtx(ctx, "update t_inventory set inventory = inventory - ? where id = ? and inventory >= ?", n, id, n)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return ErrInsufficient
	}
	return nil
}

// FindOneForUpdate locks the row for the transaction of session.
func (m *customTInventoryModel) FindOneForUpdate(ctx context.Context, session sqlx.Session, id int64) (*TInventory, error) {
	var resp TInventory
	err := session.QueryRowCtx(ctx, &resp, "select id, product_id, inventory, reserved, status, note, version from t_inventory where id = ? for update", id)
	return &resp, err
}

// SetNote takes the whole record, and sends a statement of its own.
func (m *customTInventoryModel) SetNote(ctx context.Context, data *TInventory) error {
	_, err := m.conn.ExecCtx(ctx, "update t_inventory set note = ? where id = ?", data.Note, data.Id)
	return err
}
