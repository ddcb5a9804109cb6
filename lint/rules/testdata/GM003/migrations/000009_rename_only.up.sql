-- CHANGE that only renames keeps the type.
ALTER TABLE t_inventory CHANGE sku sku_code VARCHAR(64) NOT NULL, ALGORITHM=INPLACE, LOCK=NONE;
