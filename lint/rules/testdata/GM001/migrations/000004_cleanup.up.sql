-- RENAME and TRUNCATE are DDL too.
RENAME TABLE t_order TO t_orders;
TRUNCATE TABLE t_orders; -- want "GM001 .*holds 2"
