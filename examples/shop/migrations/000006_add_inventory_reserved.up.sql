-- unsafe GM002: no ALGORITHM/LOCK clause, so the server may silently lock the table (reserved units awaiting payment).
ALTER TABLE t_inventory ADD COLUMN reserved INT NOT NULL DEFAULT 0;
