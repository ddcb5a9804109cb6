-- GQ002 unguarded-decrement: a counter decrement needs a WHERE conjunct implying c >= x.

UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?; -- want "GQ002 decrement of counter t_inventory.inventory by [?] has no WHERE conjunct implying inventory >= [?]"
UPDATE t_inventory SET inventory = inventory - ? WHERE product_id = ? LIMIT 1; -- want "GQ002"
UPDATE t_inventory -- want "GQ002"
   SET inventory = inventory - ?
 WHERE id = ?;

-- Accepted forms of c >= x.
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?;
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND ? <= inventory;
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory - ? >= 0;
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND 0 <= inventory - ?;
UPDATE t_inventory SET inventory = inventory - ? WHERE (id = ?) AND (inventory >= ?);
UPDATE t_inventory SET inventory = inventory - 2 WHERE id = ? AND inventory >= 2;
UPDATE t_inventory SET inventory = inventory - 2 WHERE id = ? AND inventory > 1;
UPDATE t_inventory SET inventory = inventory - 1 WHERE id = ? AND inventory BETWEEN 1 AND 1000;

-- WHERE c > 0 guards a decrement of the literal 1 only.
UPDATE t_inventory SET inventory = inventory - 1 WHERE id = ? AND inventory > 0;
UPDATE t_inventory SET inventory = inventory - 1 WHERE id = ? AND inventory >= 1;
UPDATE t_inventory SET inventory = inventory - 2 WHERE id = ? AND inventory > 0; -- want "GQ002 .*does not imply inventory >= 2 .*guards a decrement of 1 only"
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory > 0; -- want "GQ002 .*does not imply inventory >= [?]"
UPDATE t_inventory SET inventory = inventory - 3 WHERE id = ? AND inventory >= 2; -- want "GQ002"

-- c + -x is a decrement too.
UPDATE t_inventory SET inventory = inventory + -1 WHERE id = ?; -- want "GQ002 .*by 1"
UPDATE t_inventory SET inventory = inventory + -1 WHERE id = ? AND inventory > 0;

-- A condition inside OR holds for some rows only.
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? OR inventory >= ?; -- want "GQ002"
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND (inventory >= ? OR reserved = 0); -- want "GQ002"

-- Aliases and schema-qualified names.
UPDATE t_inventory s SET s.inventory = s.inventory - ? WHERE s.id = ? AND s.inventory >= ?;
UPDATE t_inventory s SET s.inventory = s.inventory - ? WHERE s.id = ?; -- want "GQ002 .*t_inventory.inventory"
UPDATE shop.t_inventory SET inventory = inventory - ? WHERE id = ?; -- want "GQ002 .*t_inventory.inventory"

-- Multi-table update: the guard may compare with the other table's column.
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET s.inventory = s.inventory - o.quantity WHERE o.id = ?; -- want "GQ002 .*by `o`.`quantity`"
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET s.inventory = s.inventory - o.quantity WHERE o.id = ? AND s.inventory >= o.quantity;
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id AND s.inventory >= o.quantity SET s.inventory = s.inventory - o.quantity WHERE o.id = ?;

-- Upserts have no WHERE: a decrement there is always unguarded.
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory - VALUES(inventory); -- want "GQ002 ON DUPLICATE KEY UPDATE decrements counter t_inventory.inventory"
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory + VALUES(inventory);

-- UNSIGNED: the oversell fails with error 1690, still not a clean refusal.
UPDATE t_account SET balance = balance - ? WHERE id = ?; -- want "GQ002 .*UNSIGNED.*1690"
UPDATE t_account SET balance = balance - ? WHERE id = ? AND balance >= ?;

-- Tables the schema does not know: the column name decides.
UPDATE t_warehouse SET stock = stock - 1 WHERE id = ?; -- want "GQ002 decrement of counter t_warehouse.stock"
UPDATE t_warehouse SET stock = stock - 1 WHERE id = ? AND stock >= 1;
-- A column the code decrements is a counter by inference, whatever its name;
-- a threshold never is, however it is written.
UPDATE t_warehouse SET shelf = shelf - 1 WHERE id = ?; -- want "GQ002 decrement of counter t_warehouse.shelf .*inferred counter: decremented here"
UPDATE t_warehouse SET low_stock = low_stock - 1 WHERE id = ?;
UPDATE t_warehouse SET warn_quantity = warn_quantity - ? WHERE id = ?;

-- policies.toml makes t_order.amount a counter and t_order.quantity not one.
UPDATE t_order SET amount = amount - ? WHERE id = ?; -- want "GQ002 decrement of counter t_order.amount"
UPDATE t_order SET amount = amount - ? WHERE id = ? AND amount >= ?;
UPDATE t_order SET quantity = quantity - ? WHERE id = ?;

-- Inferred counters, increments, clamps (GQ006), not decrements.
UPDATE t_inventory SET reserved = reserved - ? WHERE id = ?; -- want "GQ002 decrement of counter t_inventory.reserved .*inferred counter"
UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?;
UPDATE t_inventory SET inventory = GREATEST(inventory - ?, 0) WHERE id = ?;
UPDATE t_inventory SET inventory = inventory - LEAST(inventory, ?) WHERE id = ?;
UPDATE t_inventory SET inventory = ? WHERE id = ?;
DELETE FROM t_inventory WHERE id = ?;

-- Batched decrements (a MyBatis <foreach> batch): each CASE branch that lowers
-- the counter is a decrement of its own row and needs its own guard.
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END WHERE id IN (?, ?); -- want "GQ002 decrement of counter t_inventory.inventory by [?] in a batched CASE [(]one branch per row[)] has no WHERE conjunct implying inventory >= [?] for the row each branch writes"
UPDATE t_inventory SET inventory = CASE WHEN id = ? THEN inventory - ? WHEN id = ? THEN inventory - ? ELSE inventory END WHERE id IN (?, ?); -- want "GQ002 .*in a batched CASE"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory ELSE inventory - ? END WHERE product_id = ?; -- want "GQ002 .*in a batched CASE"
UPDATE t_inventory SET reserved = reserved + ?, inventory = CASE id WHEN ? THEN inventory - ? END WHERE id IN (?); -- want "GQ002 .*t_inventory.inventory"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory + ? WHEN ? THEN inventory - 2 END WHERE id IN (?, ?) AND inventory > 0; -- want "GQ002 .*by 2 in a batched CASE.*guards a decrement of 1 only"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - 1 WHEN ? THEN inventory - 2 END WHERE id IN (?, ?) AND inventory > 0; -- want "GQ002 .*by 2 in a batched CASE"
UPDATE t_inventory SET inventory = inventory - CASE id WHEN ? THEN ? WHEN ? THEN ? END WHERE id IN (?, ?); -- want "GQ002 .*by CASE `id` WHEN [?] THEN [?]"
-- A guard CASE that selects rows another way says nothing about these rows.
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? END WHERE id IN (?) AND inventory >= CASE product_id WHEN ? THEN ? END; -- want "GQ002 .*in a batched CASE"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END WHERE id IN (?, ?) AND inventory >= CASE id WHEN ? THEN ? END; -- want "GQ002 .*in a batched CASE"

-- Guarded batches: the WHERE repeats the CASE with the amount of each branch,
-- or a plain conjunct implies c >= x for every branch.
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END WHERE id IN (?, ?) AND inventory >= CASE id WHEN ? THEN ? WHEN ? THEN ? END;
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? END WHERE id IN (?) AND CASE id WHEN ? THEN inventory >= ? END;
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? END WHERE id IN (?) AND inventory - CASE id WHEN ? THEN ? END >= 0;
UPDATE t_inventory SET inventory = CASE WHEN id = ? THEN inventory - ? END WHERE id IN (?) AND CASE WHEN id = ? THEN ? <= inventory END;
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory ELSE inventory - ? END WHERE product_id = ? AND inventory >= CASE id WHEN ? THEN ? END;
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - 1 WHEN ? THEN inventory - 1 END WHERE id IN (?, ?) AND inventory > 0;
UPDATE t_inventory SET inventory = inventory - CASE id WHEN ? THEN ? WHEN ? THEN ? END WHERE id IN (?, ?) AND inventory >= CASE id WHEN ? THEN ? WHEN ? THEN ? END;

-- Not batched decrements: increments, no-ops, absolute branches (GQ003),
-- clamps (GQ006); the last is a counter by inference (decremented above).
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory + ? WHEN ? THEN inventory + ? ELSE inventory END WHERE id IN (?, ?);
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN ? WHEN ? THEN ? END WHERE id IN (?, ?);
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN GREATEST(inventory - ?, 0) END WHERE id IN (?);
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN IF(inventory >= ?, inventory - ?, inventory) END WHERE id IN (?);
UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? ELSE inventory END WHERE id IN (?);
UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? END WHERE id IN (?);
UPDATE t_inventory SET reserved = CASE id WHEN ? THEN reserved - ? END WHERE id IN (?); -- want "GQ002 decrement of counter t_inventory.reserved .*batched CASE.*inferred counter"
