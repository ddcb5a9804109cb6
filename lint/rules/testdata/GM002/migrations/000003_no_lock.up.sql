ALTER TABLE t_inventory ADD UNIQUE KEY uk_sku (sku), ALGORITHM=INPLACE; -- want "GM002 .*without an explicit LOCK=:"
