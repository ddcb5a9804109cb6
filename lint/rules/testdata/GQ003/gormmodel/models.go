// Package gormmodel holds the GORM models of the GQ003 fixture, in a
// package of their own as projects keep them.
package gormmodel

import "gorm.io/plugin/optimisticlock"

// Inventory maps t_inventory through its TableName method.
type Inventory struct {
	ID        int64 `gorm:"primaryKey"`
	ProductID int64
	Stock     int `gorm:"column:inventory"`
	Version   int64
}

func (Inventory) TableName() string { return "t_inventory" }

// LockedInventory is the same table with GORM's optimistic lock plugin.
type LockedInventory struct {
	ID      int64 `gorm:"primaryKey"`
	Stock   int   `gorm:"column:inventory"`
	Version optimisticlock.Version
}

func (LockedInventory) TableName() string { return "t_inventory" }

// TOrder is named by GORM's default naming strategy: t_orders, or t_order
// when only the singular is in the schema.
type TOrder struct {
	ID       int64
	Quantity int
	Amount   float64
	Status   string
}
