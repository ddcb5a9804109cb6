ALTER TABLE t_stock DROP INDEX uk_sku_no, ALGORITHM=INPLACE, LOCK=NONE; -- want "GM005 this statement removes a guard of t_stock: business key t_stock.sku_no has no UNIQUE index"
