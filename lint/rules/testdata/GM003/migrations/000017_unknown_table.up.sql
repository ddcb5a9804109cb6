-- A table the migrations never created: the previous type is unknown.
ALTER TABLE t_external MODIFY qty BIGINT NOT NULL; -- want "GM003 .*MODIFY COLUMN qty may change its type"
