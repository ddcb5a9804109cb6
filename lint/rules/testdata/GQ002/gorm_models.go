package repo

// gormInventory maps t_inventory (TableName in this file, the writes in
// gorm_stock.go).
type gormInventory struct {
	ID        int64 `gorm:"primaryKey"`
	Inventory int
	Reserved  int
}

func (gormInventory) TableName() string { return "t_inventory" }
