-- One PostgreSQL statement among MySQL ones says what it is.
INSERT INTO t_inventory (id, inventory) VALUES (1, 10) ON CONFLICT (id) DO NOTHING; -- want "GQ009 not checked: SQL does not parse at .*; it is PostgreSQL \\(ON CONFLICT\\), and guard reads MySQL and MariaDB only"
SELECT id FROM t_inventory WHERE id = 1;
