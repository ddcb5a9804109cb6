ALTER TABLE t_sku DROP COLUMN old_price; -- want "GM004 DROP COLUMN t_sku.old_price destroys its values; the code still uses it: SELECT at .*SkuMapper.java:10"
