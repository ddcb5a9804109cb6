-- Another tool's migration (a version golang-migrate cannot hold): it changes the schema, it is not code using t_order.legacy_flag.
UPDATE t_order SET legacy_flag = 1 WHERE legacy_flag IS NULL;
