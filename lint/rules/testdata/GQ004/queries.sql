-- GQ004 version-not-bumped: every write to a versioned table moves the version forward.

UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?; -- want "GQ004 UPDATE of versioned table t_inventory does not set version = version [+] 1"
UPDATE t_inventory SET note = ? WHERE id = ?; -- want "GQ004"
UPDATE t_inventory s SET s.note = ? WHERE s.id = ?; -- want "GQ004"
UPDATE t_inventory SET inventory = ?, version = ? WHERE id = ? AND version = ?; -- want "GQ004 .*sets version to [?], which is not a bump"
UPDATE t_inventory SET version = 1 WHERE id = ?; -- want "GQ004 .*not a bump"
UPDATE t_inventory SET inventory = ?, version = version - 1 WHERE id = ?; -- want "GQ004"
UPDATE t_inventory SET inventory = ?, version = version + 0 WHERE id = ?; -- want "GQ004"
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET s.inventory = s.inventory - o.quantity WHERE o.id = ? AND s.inventory >= o.quantity; -- want "GQ004 .*t_inventory"
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory + VALUES(inventory); -- want "GQ004 ON DUPLICATE KEY UPDATE of versioned table t_inventory"

-- Bumps.
UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?;
UPDATE t_inventory SET inventory = ?, version = 1 + version WHERE id = ? AND version = ?;
UPDATE t_inventory SET note = ?, version = version + 2 WHERE id = ?;
UPDATE t_inventory SET note = ?, version = (version + ?) WHERE id = ?;
UPDATE t_inventory s SET s.note = ?, s.version = s.version + 1 WHERE s.id = ?;
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET s.inventory = s.inventory - o.quantity, s.version = s.version + 1 WHERE o.id = ? AND s.inventory >= o.quantity;
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory + VALUES(inventory), version = version + 1;

-- Not versioned, or the versioned table is not written.
UPDATE t_order SET status = ? WHERE id = ?;
UPDATE t_warehouse SET stock = stock + 1 WHERE id = ?;
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET o.status = 'reserved' WHERE o.id = ?;
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?);
DELETE FROM t_inventory WHERE id = ?;
