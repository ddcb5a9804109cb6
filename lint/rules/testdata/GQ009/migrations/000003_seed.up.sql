-- Seed rows with comments written for another engine: the rows parse, so the
-- file is not taken for a foreign script, and each comment is reported.
COMMENT ON COLUMN t_inventory.inventory IS 'stock 1'; -- want "^GQ009 not checked: SQL does not parse at"
COMMENT ON COLUMN t_inventory.inventory IS 'stock 2'; -- want "^GQ009 not checked: SQL does not parse at"
COMMENT ON COLUMN t_inventory.inventory IS 'stock 3'; -- want "^GQ009 not checked: SQL does not parse at"
COMMENT ON COLUMN t_inventory.inventory IS 'stock 4'; -- want "^GQ009 not checked: SQL does not parse at"
COMMENT ON COLUMN t_inventory.inventory IS 'stock 5'; -- want "^GQ009 not checked: SQL does not parse at"
COMMENT ON COLUMN t_inventory.inventory IS 'stock 6'; -- want "^GQ009 not checked: SQL does not parse at"
INSERT INTO t_inventory (id, inventory) VALUES (1, 10);
INSERT INTO t_inventory (id, inventory) VALUES (2, 20);
INSERT INTO t_inventory (id, inventory) VALUES (3, 30);
INSERT INTO t_inventory (id, inventory) VALUES (4, 40);
INSERT INTO t_inventory (id, inventory) VALUES (5, 50);
INSERT INTO t_inventory (id, inventory) VALUES (6, 60);
INSERT INTO t_inventory (id, inventory) VALUES (7, 70);
INSERT INTO t_inventory (id, inventory) VALUES (8, 80);
INSERT INTO t_inventory (id, inventory) VALUES (9, 90);
INSERT INTO t_inventory (id, inventory) VALUES (10, 100);
