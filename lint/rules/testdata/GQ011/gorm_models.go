package dao

type gormInventory struct {
	ID        int64
	Inventory int
}

func (gormInventory) TableName() string { return "t_inventory" }
