package repo

import "gorm.io/gorm"

// gormOrder maps t_order by GORM's default name (t_orders) falling back
// to the singular the schema has; gorm.Model brings the key and soft
// delete.
type TOrder struct {
	gorm.Model
	OrderNo string
	Status  string
}
