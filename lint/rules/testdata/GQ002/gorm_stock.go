package repo

import "gorm.io/gorm"

// The decrement GORM sends has nothing in WHERE to stop it below zero.
func gormDeduct(db *gorm.DB, id int64, n int) error {
	res := db.Model(&gormInventory{}).Where("id = ?", id).Update("inventory", gorm.Expr("inventory - ?", n)) // want "^GQ002 .*inventory.*GORM chain"
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// Safe twin: Where("inventory >= ?") guards it.
func gormDeductGuarded(db *gorm.DB, id int64, n int) error {
	res := db.Model(&gormInventory{}).Where("id = ?", id).Where("inventory >= ?", n).Update("inventory", gorm.Expr("inventory - ?", n))
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// A map of expressions: each decrement needs its own guard.
func gormReserve(db *gorm.DB, id int64, n int) error {
	inventoryAndReserved := map[string]interface{}{"inventory": gorm.Expr("inventory - ?", n), "reserved": gorm.Expr("reserved - ?", n)}
	res := db.Model(&gormInventory{ID: id}).Where("inventory >= ?", n).Updates(inventoryAndReserved) // want "^GQ002 .*reserved"
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// Safe twin: both guarded.
func gormReserveGuarded(db *gorm.DB, id int64, n int) error {
	res := db.Model(&gormInventory{ID: id}).
		Where("inventory >= ? AND reserved >= ?", n, n).
		Updates(map[string]interface{}{"inventory": gorm.Expr("inventory - ?", n), "reserved": gorm.Expr("reserved - ?", n)})
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// Select names the columns the write sets: here the unguarded decrement of
// reserved is the one sent.
func gormReserveSelected(db *gorm.DB, id int64, n int) error {
	both := map[string]interface{}{"inventory": gorm.Expr("inventory - ?", n), "reserved": gorm.Expr("reserved - ?", n)}
	res := db.Model(&gormInventory{ID: id}).Select("reserved").Where("inventory >= ?", n).Updates(both) // want "^GQ002 .*reserved.*GORM chain"
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// Safe twin: the unguarded decrement is the one Select leaves out.
func gormReserveSelectedGuarded(db *gorm.DB, id int64, n int) error {
	res := db.Model(&gormInventory{ID: id}).Select("inventory").Where("inventory >= ?", n).
		Updates(map[string]interface{}{"inventory": gorm.Expr("inventory - ?", n), "reserved": gorm.Expr("reserved - ?", n)})
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// Safe twin: one unit at a time, and `inventory > 0` is `inventory >= 1`.
func gormTakeOne(db *gorm.DB, id int64) bool {
	res := db.Model(&gormInventory{}).Where("id = ?", id).Where("inventory > 0").Update("inventory", gorm.Expr("inventory - ?", 1))
	return res.Error == nil && res.RowsAffected == 1
}

// Two units against `inventory > 0`: one may be left when two are taken.
func gormTakeTwo(db *gorm.DB, id int64) bool {
	res := db.Model(&gormInventory{}).Where("id = ?", id).Where("inventory > 0").Update("inventory", gorm.Expr("inventory - ?", 2)) // want "^GQ002 decrement of counter t_inventory.inventory by 2"
	return res.Error == nil && res.RowsAffected == 1
}

// Safe twin: the guard's bound is a literal argument of the Where, which
// GORM sends as written: `inventory > 0` guards a decrement by one.
func gormDeductOneBound(db *gorm.DB, id int64) (int64, error) {
	res := db.Model(&gormInventory{}).Where("id = ? AND inventory > ?", id, 0).UpdateColumn("inventory", gorm.Expr("inventory - ?", 1))
	return res.RowsAffected, res.Error
}

// A literal bound that does not cover the amount: `inventory > 0` lets a
// decrement by two go below zero.
func gormDeductTwoBound(db *gorm.DB, id int64) (int64, error) {
	res := db.Model(&gormInventory{}).Where("id = ? AND inventory > ?", id, 0).UpdateColumn("inventory", gorm.Expr("inventory - ?", 2)) // want "^GQ002 decrement of counter t_inventory.inventory by 2"
	return res.RowsAffected, res.Error
}
