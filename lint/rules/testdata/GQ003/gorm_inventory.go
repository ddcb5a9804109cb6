package repo

import (
	"context"

	"example.com/shop/gormmodel"
	"gorm.io/gorm"
)

// Read, decrement in Go, write the record back: the stock read is stale as
// soon as another writer commits.
func gormSaveAfterRead(db *gorm.DB, id int64, n int) error {
	var inv gormmodel.Inventory
	if err := db.First(&inv, id).Error; err != nil {
		return err
	}
	inv.Stock -= n
	return db.Save(&inv).Error // want "^GQ003 counter t_inventory.inventory is set to inv.Stock - n, computed from inv read by First at line 14, and written by GORM db.Save"
}

// The same read-modify-write through Updates of the record.
func gormUpdatesAfterRead(ctx context.Context, db *gorm.DB, id int64, n int) error {
	inv := gormmodel.Inventory{}
	db.WithContext(ctx).Where("id = ?", id).Take(&inv)
	inv.Stock = inv.Stock - n
	return db.WithContext(ctx).Updates(&inv).Error // want "GQ003 .*computed from inv read by Take"
}

// Safe twin: the database decrements under a guard.
func gormDecrement(db *gorm.DB, id int64, n int) error {
	res := db.Model(&gormmodel.Inventory{}).Where("id = ? AND inventory >= ?", id, n).Update("inventory", gorm.Expr("inventory - ?", n))
	if res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

// A chain writing a value computed from the read: the finding names it.
func gormChainAfterRead(db *gorm.DB, id int64, n int) error {
	var inv gormmodel.Inventory
	db.Where("id = ?", id).First(&inv)
	return db.Where("id = ? AND inventory >= ?", id, n).Updates(gormmodel.Inventory{Stock: inv.Stock - n}).Error // want "GQ003 counter t_inventory.inventory is set to an absolute value .*the value bound is inv.Stock - n, computed from inv read by First at line 41 .*GORM chain"
}

// Model(&inv) carries the key; the value still comes from the read.
func gormUpdateModel(db *gorm.DB, id int64, n int) error {
	var inv gormmodel.Inventory
	db.First(&inv, id)
	return db.Model(&inv).Update("inventory", inv.Stock-n).Error // want "GQ003 .*WHERE.*the value bound is inv.Stock-n"
}

// Safe twin: a version compare-and-set written out in the chain.
func gormCAS(db *gorm.DB, id int64, n int) error {
	var inv gormmodel.Inventory
	db.First(&inv, id)
	res := db.Model(&gormmodel.Inventory{}).Where("id = ? AND version = ?", id, inv.Version).
		Updates(map[string]interface{}{"inventory": inv.Stock - n, "version": gorm.Expr("version + 1")})
	if res.RowsAffected == 0 {
		return errConflict
	}
	return res.Error
}

// Safe twins: the optimistic lock plugin compares and bumps the version.
func gormLocked(db *gorm.DB, id int64, n int) error {
	var inv gormmodel.LockedInventory
	db.First(&inv, id)
	inv.Stock -= n
	if res := db.Model(&inv).Update("inventory", inv.Stock); res.RowsAffected == 0 {
		return errConflict
	}
	return db.Save(&inv).Error
}

// Safe: a record never read is not a read-modify-write.
func gormCreate(db *gorm.DB, q int) error {
	o := gormmodel.TOrder{Quantity: q, Status: "new"}
	return db.Save(&o).Error
}

// The default table name, singular in this schema: a quantity read and
// written back.
func gormOrderQuantity(db *gorm.DB, id int64) error {
	var o gormmodel.TOrder
	db.First(&o, id)
	o.Quantity--
	return db.Save(&o).Error // want "GQ003 counter t_order.quantity is set to o.Quantity - 1"
}

// amount is no counter by name: decrementing it in Go before the write
// makes it one, as `amount = amount - ?` would.
func gormRefund(db *gorm.DB, id int64, x float64) error {
	var o gormmodel.TOrder
	db.First(&o, id)
	o.Amount -= x
	return db.Save(&o).Error // want "GQ003 counter t_order.amount is set to o.Amount - x.*inferred counter: decremented at testdata/GQ003/gorm_inventory.go:95"
}

// A Where before Updates of the record read: GORM adds the record's key to
// the Where, and the stock written is still the one read.
func gormWhereUpdatesAfterRead(db *gorm.DB, productID int64, n int) error {
	var inv *gormmodel.Inventory
	if err := db.Where("product_id = ?", productID).Find(&inv).Error; err != nil {
		return err
	}
	inv.Stock -= n
	return db.Where("product_id = ?", productID).Updates(inv).Error // want "GQ003 counter t_inventory.inventory is set to inv.Stock - n, computed from inv read by Find at line .*, and written by GORM db.Updates.inv. .UPDATE t_inventory SET … WHERE .product_id = .. AND id = .."
}

// Safe twin: the Where compares the stock it replaces.
func gormWhereCAS(db *gorm.DB, productID int64, n int) error {
	var inv gormmodel.Inventory
	if err := db.Where("product_id = ?", productID).First(&inv).Error; err != nil {
		return err
	}
	old := inv.Stock
	inv.Stock -= n
	res := db.Where("product_id = ? AND inventory = ?", productID, old).Updates(&inv)
	if res.RowsAffected != 1 {
		return errConflict
	}
	return res.Error
}
