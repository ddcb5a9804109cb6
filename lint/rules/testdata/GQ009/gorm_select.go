package repo

import "gorm.io/gorm"

type gormStock struct {
	ID        int64 `gorm:"primaryKey"`
	Inventory int
}

func (gormStock) TableName() string { return "t_inventory" }

// A chain with a link guard does not render: the write is not checked, and
// the finding says which link.
func gormDeductSelected(db *gorm.DB, id int64, n int) error {
	return db.Model(&gormStock{}).Omit("version").Where("id = ?", id).Update("inventory", gorm.Expr("inventory - ?", n)).Error // want "^GQ009 not checked: GORM chain not followed: Omit[(]…[)] at line 15 is not a form guard renders"
}

// Rendered and checked: no GQ009.
func gormDeductGuarded(db *gorm.DB, id int64, n int) (int64, error) {
	res := db.Model(&gormStock{}).Where("id = ? AND inventory >= ?", id, n).Update("inventory", gorm.Expr("inventory - ?", n))
	return res.RowsAffected, res.Error
}

// Not GORM's beyond doubt (no Model or Table): an Update of another API is
// left alone.
func otherUpdate(c interface{ Update(string, int) error }) error {
	return c.Update("inventory", 1)
}
