package repo

import (
	"errors"

	"gorm.io/gorm"
)

var errState = errors.New("order is not pending")

// Read, check the state in Go, write it back: another payment callback may
// have moved the order in between.
func gormPay(db *gorm.DB, no string) error {
	var o TOrder
	if err := db.Where("order_no = ?", no).First(&o).Error; err != nil {
		return err
	}
	if o.Status != "pending" {
		return errState
	}
	o.Status = "paid"
	return db.Save(&o).Error // want "^GQ005 state column t_order.status is set to \"paid\" and written by GORM db.Save.* after o read by First at line 15"
}

// A chain without the state it leaves in WHERE.
func gormShip(db *gorm.DB, id uint) error {
	return db.Model(&TOrder{}).Where("id = ?", id).Update("status", "shipped").Error // want "^GQ005 .*status.*GORM chain"
}

// Safe twin: the transition names the state it leaves, and the count says
// whether it happened.
func gormShipGuarded(db *gorm.DB, id uint) error {
	res := db.Model(&TOrder{}).Where("id = ? AND status = ?", id, "paid").Update("status", "shipped")
	if res.RowsAffected != 1 {
		return errState
	}
	return res.Error
}

// Safe twin of gormPay: the record's state moves in one guarded UPDATE.
func gormPayGuarded(db *gorm.DB, o *TOrder) error {
	res := db.Model(o).Where("status = ?", "pending").Updates(TOrder{Status: "paid"})
	if res.RowsAffected == 0 {
		return errState
	}
	return res.Error
}

// Silent: an edit form's partial update of the record read; the old state
// is never looked at.
func gormEdit(db *gorm.DB, id uint, status string) error {
	var o TOrder
	if err := db.First(&o, id).Error; err != nil {
		return err
	}
	if status != "" {
		o.Status = status
	}
	return db.Save(&o).Error
}

// The same after a check of the old state: check, then act.
func gormEditOpen(db *gorm.DB, id uint, status string) error {
	var o TOrder
	if err := db.First(&o, id).Error; err != nil {
		return err
	}
	if o.Status == "closed" {
		return errState
	}
	if status != "" {
		o.Status = status
	}
	return db.Save(&o).Error // want "^GQ005 state column t_order.status is set to status and written by GORM db.Save"
}

// GORM expands a slice bound to `IN ?` into a list: the statement is read
// as `IN (?)`, and the transition of many orders has no state predicate.
func gormCloseMany(db *gorm.DB, ids []uint) error {
	return db.Exec("UPDATE t_order SET status = 'closed' WHERE id IN ?", ids).Error // want "^GQ005 state column t_order.status is set to 'closed'"
}

// Safe twin: the batch leaves only the orders still pending.
func gormCloseManyGuarded(db *gorm.DB, ids []uint) error {
	res := db.Exec("UPDATE t_order SET status = 'closed' WHERE status = 'pending' AND id IN ?", ids)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errState
	}
	return nil
}
