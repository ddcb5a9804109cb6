ALTER TABLE t_inventory ADD COLUMN reserved INT NOT NULL DEFAULT 0 CHECK (reserved >= 0); -- want "GM003 .*ADD COLUMN reserved with a CHECK validates every row"
