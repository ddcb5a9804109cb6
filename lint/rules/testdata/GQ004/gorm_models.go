package dao

import "gorm.io/plugin/optimisticlock"

type gormInventory struct {
	ID        int64
	Inventory int
}

func (gormInventory) TableName() string { return "t_inventory" }

// gormLockedInventory carries GORM's optimistic lock: every update bumps it.
type gormLockedInventory struct {
	ID        int64
	Inventory int
	Version   optimisticlock.Version
}

func (gormLockedInventory) TableName() string { return "t_inventory" }
