ALTER TABLE t_inventory MODIFY COLUMN inventory BIGINT NOT NULL DEFAULT 0, ALGORITHM=INPLACE, LOCK=NONE; -- want "GM003 .*MODIFY COLUMN inventory changes its type from int\\(11\\) to bigint\\(20\\)"
