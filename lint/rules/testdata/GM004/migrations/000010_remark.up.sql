ALTER TABLE t_order DROP COLUMN remark; -- want "GM004 DROP COLUMN t_order.remark destroys its values: a later migration adds it again, empty"
