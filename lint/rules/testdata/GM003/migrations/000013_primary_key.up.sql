ALTER TABLE t_inventory DROP PRIMARY KEY, ADD PRIMARY KEY (id, sku_code); -- want "GM003 .*DROP PRIMARY KEY rebuilds the table; ADD PRIMARY KEY rebuilds the table"
