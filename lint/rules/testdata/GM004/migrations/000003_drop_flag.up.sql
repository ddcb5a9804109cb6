ALTER TABLE t_order DROP COLUMN legacy_flag, ALGORITHM=INPLACE, LOCK=NONE; -- want "GM004 DROP COLUMN t_order.legacy_flag destroys its values; nothing guard reads uses it"
