-- One DDL statement with DML and SET around it: fine.
SET NAMES utf8mb4;
ALTER TABLE t_inventory ADD COLUMN version BIGINT NOT NULL DEFAULT 0, ALGORITHM=INSTANT;
INSERT INTO t_inventory (id, inventory) VALUES (1, 10);
UPDATE t_inventory SET inventory = 20 WHERE id = 1;
