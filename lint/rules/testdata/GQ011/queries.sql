-- The same conditional writes in a .sql file: no Go code runs them, nothing to compare.
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?;
UPDATE t_order SET note = ?, version = version + 1 WHERE id = ? AND version = ?;
