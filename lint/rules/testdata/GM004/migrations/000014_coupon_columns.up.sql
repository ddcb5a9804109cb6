-- The GORM model maps discount (its field Discount), not note.
ALTER TABLE t_coupon DROP COLUMN discount; -- want "GM004 DROP COLUMN t_coupon.discount destroys its values; the code still uses it: GORM model Coupon at .*coupon.go:6"
ALTER TABLE t_coupon DROP COLUMN note; -- want "GM004 DROP COLUMN t_coupon.note destroys its values; nothing guard reads uses it"
