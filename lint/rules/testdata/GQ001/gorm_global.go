package dao

import "gorm.io/gorm"

// GORM sends an UPDATE without conditions only when the session allows it.
func gormResetAll(db *gorm.DB) error {
	return db.Session(&gorm.Session{AllowGlobalUpdate: true}).Model(&gormLog{}).Update("msg", "").Error // want "^GQ001"
}

// Safe: without AllowGlobalUpdate GORM refuses it (ErrMissingWhereClause).
func gormResetRefused(db *gorm.DB) error {
	return db.Model(&gormLog{}).Update("msg", "").Error
}

// Safe: a condition.
func gormResetOne(db *gorm.DB, id int64) error {
	return db.Model(&gormLog{}).Where("id = ?", id).Update("msg", "").Error
}
