-- Two ALTERs in one file.
ALTER TABLE t_inventory ADD CONSTRAINT chk_inventory CHECK (inventory >= 0), ALGORITHM=COPY, LOCK=SHARED;
ALTER TABLE t_order ADD UNIQUE KEY uk_order_no (order_no), ALGORITHM=INPLACE, LOCK=NONE; -- want "GM001 .*migration holds 2 DDL statements"
