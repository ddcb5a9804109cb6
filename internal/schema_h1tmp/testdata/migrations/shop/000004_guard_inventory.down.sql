ALTER TABLE t_inventory DROP CONSTRAINT chk_inventory_non_negative;
