ALTER TABLE t_inventory DROP COLUMN version;
