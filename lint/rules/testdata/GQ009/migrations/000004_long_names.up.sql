-- MySQL and MariaDB refuse a database, table, column, index or constraint
-- name over 64 characters (Error 1059); the parser takes it, so the replay
-- would hold a table the server never creates. Each twin at exactly 64
-- characters is what the server accepts.
CREATE TABLE t_order_line_items_kept_for_the_reconciliation_of_partner_invoice (id BIGINT NOT NULL PRIMARY KEY) ENGINE=InnoDB; -- want "^GQ009 not checked: the server refuses this statement: the table name t_order_line_items_kept_for_the_reconciliation_of_partner_invoice is 65 characters long, over the limit of 64 characters"
CREATE TABLE t_order_line_items_kept_for_the_reconciliation_of_partner_invoic (id BIGINT NOT NULL PRIMARY KEY) ENGINE=InnoDB;
ALTER TABLE t_inventory ADD CONSTRAINT chk_t_inventory_inventory_is_never_below_zero_after_a_deduction_x CHECK (inventory >= 0), ALGORITHM=COPY, LOCK=SHARED; -- want "^GQ009 not checked: the server refuses this statement: the constraint name chk_t_inventory_inventory_is_never_below_zero_after_a_deduction_x is 65 characters long"
ALTER TABLE t_inventory ADD CONSTRAINT chk_t_inventory_inventory_is_never_below_zero_after_a_deduction_ CHECK (inventory >= 0), ALGORITHM=COPY, LOCK=SHARED;
CREATE INDEX idx_t_inventory_version_for_the_reconciliation_job_of_the_nightly ON t_inventory (version); -- want "^GQ009 not checked: the server refuses this statement: the index name idx_t_inventory_version_for_the_reconciliation_job_of_the_nightly is 65 characters long"
CREATE INDEX idx_t_inventory_version_for_the_reconciliation_job_of_the_nightl ON t_inventory (version);
-- The limit counts characters, not bytes: 64 Chinese characters are 192 bytes, and accepted.
ALTER TABLE t_inventory ADD COLUMN `库存_预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留量量` INT NOT NULL DEFAULT 0, ADD COLUMN reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buye INT NOT NULL DEFAULT 0, ALGORITHM=INSTANT; -- want "^GQ009 not checked: the server refuses this statement: the column name 库存_预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留量量 is 65 characters long, and the column name reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buye is 65 characters long, over the limit of 64"
ALTER TABLE t_inventory ADD COLUMN `库存_预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留预留量` INT NOT NULL DEFAULT 0, ADD COLUMN reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buy INT NOT NULL DEFAULT 0, ALGORITHM=INSTANT;
