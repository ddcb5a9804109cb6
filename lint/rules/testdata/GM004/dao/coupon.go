package dao

import "gorm.io/gorm"

// Coupon is written through GORM only: no SQL text names its columns.
type Coupon struct {
	ID       int64 `gorm:"primaryKey"`
	Code     string
	Discount int64
}

func (Coupon) TableName() string { return "t_coupon" }

func Use(db *gorm.DB, code string) error {
	return db.Where("code = ?", code).Delete(&Coupon{}).Error
}
