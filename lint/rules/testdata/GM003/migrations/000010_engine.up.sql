ALTER TABLE t_inventory ENGINE=InnoDB; -- want "GM003 .*ENGINE=InnoDB rebuilds the table"
