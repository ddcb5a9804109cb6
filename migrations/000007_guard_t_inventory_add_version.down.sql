-- guard plan: rolls back 000007_guard_t_inventory_add_version.up.sql (add version column t_inventory.version).
ALTER TABLE `t_inventory` DROP COLUMN `version`, ALGORITHM=INPLACE, LOCK=NONE;
