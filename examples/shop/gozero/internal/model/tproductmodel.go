package model

import (
	"context"
	"errors"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/sqlc"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

var (
	// ErrNotFound means no product has the id.
	ErrNotFound = sqlc.ErrNotFound
	// ErrNoRowsUpdate means a compare-and-set lost: the row changed since it was read.
	ErrNoRowsUpdate = errors.New("update db no rows change")
	// ErrInsufficient means there is not enough stock for the deduction.
	ErrInsufficient = errors.New("insufficient stock")
)

type (
	// TProductModel is the model the stock service's context holds: the
	// generated methods and the hand-written ones below.
	TProductModel interface {
		tProductModel
		DeductStock(ctx context.Context, id, n int64) error
	}

	customTProductModel struct {
		*defaultTProductModel
	}
)

// NewTProductModel returns the model over conn.
func NewTProductModel(conn sqlx.SqlConn) TProductModel {
	return &customTProductModel{defaultTProductModel: newTProductModel(conn)}
}

// DeductStock is written by hand: the database decides whether n units are there.
func (m *customTProductModel) DeductStock(ctx context.Context, id, n int64) error {
	// safe: conditional UPDATE, version bumped, RowsAffected compared.
	query := fmt.Sprintf("update %s set `stock` = `stock` - ?, `version` = `version` + 1 where `id` = ? and `stock` >= ?", m.table)
	res, err := m.conn.ExecCtx(ctx, query, n, id, n)
	if err != nil {
		return err
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
