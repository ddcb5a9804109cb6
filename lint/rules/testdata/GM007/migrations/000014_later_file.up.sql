-- The same table in a later file may hold rows by then.
ALTER TABLE t_coupon MODIFY COLUMN amount INT NOT NULL, ALGORITHM=INPLACE, LOCK=NONE; -- want "GM007 .*t_coupon MODIFY COLUMN amount.*`amount` IS NULL"
-- A primary key column is NOT NULL whatever its MODIFY says.
ALTER TABLE t_coupon MODIFY COLUMN id BIGINT NOT NULL, ALGORITHM=INPLACE, LOCK=NONE;
