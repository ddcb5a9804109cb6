ALTER TABLE t_order DROP COLUMN coupon_id, ALGORITHM=INPLACE, LOCK=NONE; -- want "GM004 DROP COLUMN t_order.coupon_id destroys its values; the code still uses it: SELECT at .*OrderMapper.xml:5"
