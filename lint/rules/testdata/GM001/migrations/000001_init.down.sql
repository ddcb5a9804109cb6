-- Down files are not checked.
DROP TABLE t_order;
DROP TABLE t_inventory;
