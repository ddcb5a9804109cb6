package dao

import "gorm.io/gorm"

// The versioned table's version is left alone.
func gormRestock(db *gorm.DB, id int64, n int) *gorm.DB {
	return db.Model(&gormInventory{}).Where("id = ?", id).Update("inventory", gorm.Expr("inventory + ?", n)) // want "^GQ004 .*GORM chain"
}

// Safe twin: the optimistic lock plugin adds version = version + 1.
func gormRestockLocked(db *gorm.DB, id int64, n int) *gorm.DB {
	return db.Model(&gormLockedInventory{}).Where("id = ?", id).Update("inventory", gorm.Expr("inventory + ?", n))
}
