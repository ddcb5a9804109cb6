ALTER TABLE t_order DROP COLUMN version;
