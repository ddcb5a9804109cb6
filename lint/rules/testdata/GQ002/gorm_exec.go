package dao

import "gorm.io/gorm"

// Exec binds a gorm.Expr: GORM sends its SQL in place of the ?, so the
// write is the decrement `inventory = inventory - ?`, unguarded here.
func deductExpr(db *gorm.DB, id int64, n int) error {
	return db.Exec("UPDATE t_inventory SET inventory = ? WHERE id = ?", gorm.Expr("inventory - ?", n), id).Error // want "GQ002 decrement of counter t_inventory.inventory by \\? has no WHERE conjunct"
}

// Safe twin: the same with its guard.
func deductExprGuarded(db *gorm.DB, id int64, n int) error {
	return db.Exec("UPDATE t_inventory SET inventory = ? WHERE id = ? AND inventory >= ?", gorm.Expr("inventory - ?", n), id, n).Error
}
