-- guard plan: rolls back 000008_guard_t_inventory_inventory_nonneg.up.sql (add CHECK (inventory >= 0) to t_inventory).
ALTER TABLE `t_inventory` DROP CONSTRAINT `chk_t_inventory_inventory_nonneg`, ALGORITHM=INPLACE, LOCK=NONE;
