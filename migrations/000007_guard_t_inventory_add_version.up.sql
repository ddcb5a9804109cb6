-- guard plan: add version column t_inventory.version
-- Fixes GS006 missing-version-column.
-- Algorithm: INSTANT; blocks writes: no; rows: unknown (planned offline).
-- Note: bump it in every UPDATE (`version` = `version` + 1) and compare it in read-modify-write updates (WHERE … AND `version` = ?).
ALTER TABLE `t_inventory` ADD COLUMN `version` BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT;
