//go:build gorm

// Package repo is the shop's GORM data access: the same stock and order
// writes as package dao, through GORM, the safe and the unsafe way side by
// side. It builds with the gorm tag in a module that requires gorm.io/gorm.
package repo

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"github.com/guard-sql/guard/examples/shop/internal/model"
)

// ErrInsufficient means there is not enough stock; ErrStateChanged that the
// order left the state the transition starts from.
var (
	ErrInsufficient = errors.New("insufficient stock")
	ErrStateChanged = errors.New("order state changed")
)

// Repo wraps the shop's GORM handle.
type Repo struct{ db *gorm.DB }

// DeductStock takes n units of a product in one guarded, versioned UPDATE.
func (r *Repo) DeductStock(ctx context.Context, productID int64, n int) error {
	// safe: the WHERE refuses an oversell, the version moves, RowsAffected is compared.
	res := r.db.WithContext(ctx).Model(&model.Product{}).Where("id = ? AND stock >= ?", productID, n).
		Updates(map[string]interface{}{"stock": gorm.Expr("stock - ?", n), "version": gorm.Expr("version + 1")})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return ErrInsufficient
	}
	return nil
}

// MoveInventory takes units out of one warehouse.
func (r *Repo) MoveInventory(ctx context.Context, productID int64, warehouseID, n int) error {
	// unsafe GQ002: nothing in the chain's WHERE stops the count going below zero.
	res := r.db.WithContext(ctx).Model(&model.Inventory{}).Where("product_id = ? AND warehouse_id = ?", productID, warehouseID).
		Update("inventory", gorm.Expr("inventory - ?", n))
	if res.RowsAffected != 1 {
		return ErrInsufficient
	}
	return res.Error
}

// MoveInventoryGuarded is MoveInventory with the guard in WHERE.
func (r *Repo) MoveInventoryGuarded(ctx context.Context, productID int64, warehouseID, n int) error {
	// safe: Where("inventory >= ?") makes the decrement conditional, and the count is compared.
	res := r.db.WithContext(ctx).Model(&model.Inventory{}).
		Where("product_id = ? AND warehouse_id = ?", productID, warehouseID).Where("inventory >= ?", n).
		Update("inventory", gorm.Expr("inventory - ?", n))
	if res.RowsAffected != 1 {
		return ErrInsufficient
	}
	return res.Error
}

// ReserveInventory holds units for an unpaid order.
func (r *Repo) ReserveInventory(ctx context.Context, id int64, n int) error {
	// unsafe GQ011: guarded, but only Error is looked at: too little stock is a nil Error and 0 rows.
	return r.db.WithContext(ctx).Model(&model.Inventory{}).Where("id = ? AND inventory >= ?", id, n).
		Update("inventory", gorm.Expr("inventory - ?", n)).Error
}

// CountInventory writes back a count computed from a read under the Redis lock.
func (r *Repo) CountInventory(ctx context.Context, id int64, sold int) error {
	var inv model.Inventory
	if err := r.db.WithContext(ctx).First(&inv, id).Error; err != nil {
		return err
	}
	inv.Inventory -= sold
	// unsafe GQ003: Save writes the stale count back WHERE id = ? only: a sale committed since the read is lost.
	return r.db.WithContext(ctx).Save(&inv).Error
}

// PayOrder moves an order from NEW to PAID after checking it in Go.
func (r *Repo) PayOrder(ctx context.Context, id int64) error {
	var o model.Order
	if err := r.db.WithContext(ctx).First(&o, id).Error; err != nil {
		return err
	}
	if o.Status != "NEW" {
		return ErrStateChanged
	}
	o.Status = "PAID"
	// unsafe GQ005: the check above ran on a read; Save's WHERE names the key only.
	return r.db.WithContext(ctx).Save(&o).Error
}

// PayOrderGuarded is PayOrder as one conditional, versioned UPDATE.
func (r *Repo) PayOrderGuarded(ctx context.Context, id, version int64) error {
	// safe: the state left and the version read are in WHERE, the version moves, the count is compared.
	res := r.db.WithContext(ctx).Model(&model.Order{}).Where("id = ? AND status = ? AND version = ?", id, "NEW", version).
		Updates(map[string]interface{}{"status": "PAID", "version": gorm.Expr("version + 1")})
	if res.RowsAffected != 1 {
		return ErrStateChanged
	}
	return res.Error
}
