// Package model holds the shop's GORM models. GORM would name their tables
// products, inventories and orders; TableName says which tables they are.
package model

// Product is a row of t_product: stock guarded by a CHECK and a version.
type Product struct {
	ID      int64  `gorm:"primaryKey"`
	SKU     string `gorm:"column:sku"`
	Name    string
	Stock   int
	Version int64
}

// TableName names the table GORM writes.
func (Product) TableName() string { return "t_product" }

// Inventory is a row of t_inventory: units per warehouse, no version.
type Inventory struct {
	ID          int64 `gorm:"primaryKey"`
	ProductID   int64
	WarehouseID int
	Inventory   int
	Reserved    int
}

// TableName names the table GORM writes.
func (Inventory) TableName() string { return "t_inventory" }

// Order is a row of t_order: a state machine with a version.
type Order struct {
	ID        int64 `gorm:"primaryKey"`
	OrderNo   string
	UserID    int64
	ProductID int64
	ItemCount int
	Amount    float64
	Status    string
	Version   int64
}

// TableName names the table GORM writes.
func (Order) TableName() string { return "t_order" }
