ALTER TABLE t_quota ADD CONSTRAINT chk_quota CHECK (quantity >= 0) NOT ENFORCED;
