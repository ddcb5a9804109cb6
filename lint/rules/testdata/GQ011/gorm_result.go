package dao

import "gorm.io/gorm"

// Error alone: a refused decrement (too little stock) is a nil Error.
func gormDeductErrOnly(db *gorm.DB, id int64, n int) error {
	return db.Model(&gormInventory{}).Where("id = ? AND inventory >= ?", id, n).Update("inventory", gorm.Expr("inventory - ?", n)).Error // want "^GQ011 GORM Update runs a guarded decrement of inventory but only its Error is checked"
}

// Discarded entirely.
func gormDeductFire(db *gorm.DB, id int64, n int) {
	db.Model(&gormInventory{}).Where("id = ? AND inventory >= ?", id, n).UpdateColumn("inventory", gorm.Expr("inventory - ?", n)) // want "GQ011 GORM UpdateColumn runs a guarded decrement of inventory but the result is discarded"
}

// Safe twin: the *gorm.DB kept and its RowsAffected compared.
func gormDeductChecked(db *gorm.DB, id int64, n int) error {
	res := db.Model(&gormInventory{}).Where("id = ? AND inventory >= ?", id, n).Update("inventory", gorm.Expr("inventory - ?", n))
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errInsufficient
	}
	return nil
}

// Safe twin: the count compared in place.
func gormDeductInline(db *gorm.DB, id int64, n int) error {
	if db.Model(&gormInventory{}).Where("id = ? AND inventory >= ?", id, n).Update("inventory", gorm.Expr("inventory - ?", n)).RowsAffected != 1 {
		return errInsufficient
	}
	return nil
}

// Safe twin: the *gorm.DB returned, the caller looks at it.
func gormDeductReturned(db *gorm.DB, id int64, n int) *gorm.DB {
	return db.Model(&gormInventory{}).Where("id = ? AND inventory >= ?", id, n).Update("inventory", gorm.Expr("inventory - ?", n))
}

// Raw SQL through GORM: *gorm.DB's RowsAffected field is the count.
func gormRawDeduct(db *gorm.DB, id int64, n int) error {
	if db.Exec("UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?", n, id, n).RowsAffected != 1 {
		return errInsufficient
	}
	return nil
}
