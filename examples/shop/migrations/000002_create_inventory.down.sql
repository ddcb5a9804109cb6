DROP TABLE t_inventory;
