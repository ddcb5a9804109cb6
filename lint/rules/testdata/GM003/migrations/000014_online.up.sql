-- Online changes: new column, new index, rename.
ALTER TABLE t_inventory ADD COLUMN version BIGINT NOT NULL DEFAULT 0, ALGORITHM=INSTANT;
ALTER TABLE t_inventory ADD UNIQUE KEY uk_sku (sku_code), ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE t_inventory RENAME COLUMN note TO remark, ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE t_inventory ADD KEY ix_inventory (inventory), ALGORITHM=COPY, LOCK=SHARED; -- want "GM003 .*: ALGORITHM=COPY forces a table copy$"
