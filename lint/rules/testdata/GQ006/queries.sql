-- GQ006 clamped-decrement: clamping at zero turns an oversell into a silent success.

UPDATE t_inventory SET inventory = GREATEST(inventory - ?, 0) WHERE id = ?; -- want "GQ006 decrement of counter t_inventory.inventory is clamped [(]GREATEST"
UPDATE t_inventory SET inventory = GREATEST(0, inventory - ?) WHERE id = ?; -- want "GQ006"
UPDATE t_inventory SET inventory = IF(inventory >= ?, inventory - ?, 0) WHERE id = ?; -- want "GQ006 .*IF"
UPDATE t_inventory SET inventory = IF(inventory - ? < 0, 0, inventory - ?) WHERE id = ?; -- want "GQ006"
UPDATE t_inventory SET inventory = CASE WHEN inventory >= ? THEN inventory - ? ELSE 0 END WHERE id = ?; -- want "GQ006 .*CASE"
UPDATE t_inventory SET inventory = inventory - LEAST(inventory, ?) WHERE id = ?; -- want "GQ006 .*LEAST"
UPDATE t_inventory s SET s.inventory = GREATEST(s.inventory - ?, 0) WHERE s.id = ? AND s.inventory >= ?; -- want "GQ006"
UPDATE t_warehouse SET stock = GREATEST(stock - 1, 0) WHERE id = ?; -- want "GQ006 .*t_warehouse.stock"
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = GREATEST(inventory - VALUES(inventory), 0); -- want "GQ006"

-- Guarded decrements and other shapes.
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?;
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?;
UPDATE t_inventory SET inventory = GREATEST(inventory + ?, 0) WHERE id = ?;
UPDATE t_inventory SET inventory = IF(inventory >= ?, inventory - ?, inventory) WHERE id = ?;
UPDATE t_inventory SET inventory = IFNULL(inventory, 0) + ? WHERE id = ?;
UPDATE t_inventory SET inventory = GREATEST(?, 0) WHERE id = ? AND version = ?;
-- Not a counter.
UPDATE t_order SET amount = GREATEST(amount - ?, 0) WHERE id = ?;
UPDATE t_inventory SET reserved = GREATEST(reserved - ?, 0) WHERE id = ?;

-- Batched decrements: a CASE branch per row that floors or keeps the counter
-- when it holds too little skips that row silently; the rest of the batch is written.
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN GREATEST(inventory - ?, 0) WHEN ? THEN GREATEST(inventory - ?, 0) END WHERE id IN (?, ?); -- want "GQ006 decrement of counter t_inventory.inventory is clamped in a branch of a batched CASE [(]GREATEST"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN IF(inventory >= ?, inventory - ?, inventory) END WHERE id IN (?); -- want "GQ006 .*batched CASE [(]IF"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN IF(inventory < ?, inventory, inventory - ?) END WHERE id IN (?); -- want "GQ006 .*batched CASE"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN CASE WHEN inventory >= ? THEN inventory - ? ELSE inventory END END WHERE id IN (?); -- want "GQ006 .*batched CASE"
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - LEAST(inventory, ?) END WHERE id IN (?); -- want "GQ006 .*batched CASE [(]`inventory`-LEAST"
UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? ELSE inventory END WHERE id IN (?); -- want "GQ006 .*batched CASE"
UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? ELSE 0 END WHERE id IN (?); -- want "GQ006 .*batched CASE"

-- Batches that fail rather than clamp (GQ002 when unguarded), add, keep, or
-- write absolute values; a searched CASE without ELSE leaves a short row NULL,
-- not clamped.
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END WHERE id IN (?, ?);
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN 0 END WHERE id IN (?, ?);
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory + ? ELSE inventory END WHERE id IN (?);
UPDATE t_inventory SET inventory = CASE id WHEN ? THEN IF(?, inventory - ?, inventory) END WHERE id IN (?);
UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? END WHERE id IN (?);
UPDATE t_inventory SET reserved = CASE id WHEN ? THEN GREATEST(reserved - ?, 0) END WHERE id IN (?);
