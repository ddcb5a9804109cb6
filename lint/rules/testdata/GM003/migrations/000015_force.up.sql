ALTER TABLE t_inventory FORCE; -- want "GM003 .*FORCE rebuilds the table"
