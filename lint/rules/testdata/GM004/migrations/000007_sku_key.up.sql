-- A new primary key in the same statement: a change of key, not a drop (GM003 reports the rebuild).
ALTER TABLE t_sku DROP PRIMARY KEY, ADD PRIMARY KEY (id, sku_code);
