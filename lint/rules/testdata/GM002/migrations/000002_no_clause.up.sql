ALTER TABLE t_inventory ADD COLUMN version BIGINT NOT NULL DEFAULT 0; -- want "GM002 .*ALTER TABLE t_inventory without an explicit ALGORITHM= and LOCK="
