ALTER TABLE t_inventory ADD CONSTRAINT chk_inventory_non_negative CHECK (inventory >= 0), ALGORITHM=COPY;
