ALTER TABLE t_stock MODIFY remark VARCHAR(100) NULL, ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE t_stock MODIFY COLUMN unit_price DECIMAL(14,2) NOT NULL DEFAULT 0; -- want "GM003 .*from decimal\\(12,2\\) to decimal\\(14,2\\)"
