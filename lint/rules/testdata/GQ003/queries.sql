-- GQ003 absolute-counter-write: a counter set to a value computed elsewhere needs a version CAS.

UPDATE t_inventory SET inventory = ? WHERE id = ?; -- want "GQ003 counter t_inventory.inventory is set to an absolute value [(][?][)] without `version = [?]` in WHERE"
UPDATE t_inventory SET inventory = 5 WHERE id = ?; -- want "GQ003 .*[(]5[)]"
UPDATE t_inventory SET inventory = 0 WHERE product_id = ?; -- want "GQ003"
UPDATE t_inventory SET inventory = (SELECT quantity FROM t_order WHERE id = ?) WHERE id = ?; -- want "GQ003 .*SELECT"
UPDATE t_inventory SET inventory = @new_stock WHERE id = ?; -- want "GQ003 .*@"
UPDATE t_inventory s SET s.inventory = ? WHERE s.id = ?; -- want "GQ003 .*t_inventory.inventory"
UPDATE t_order SET quantity = ? WHERE id = ?; -- want "GQ003 counter t_order.quantity"
UPDATE t_warehouse SET stock = ? WHERE id = ?; -- want "GQ003 counter t_warehouse.stock"

-- Only an equality on the version column is a compare-and-set.
UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? AND version >= ?; -- want "GQ003"
UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? OR version = ?; -- want "GQ003"
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET s.inventory = ? WHERE o.id = ? AND o.version = ?; -- want "GQ003"

-- Version CAS: fine.
UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? AND version = ?;
UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE ? = version AND id = ?;
UPDATE t_inventory s SET s.inventory = ?, s.version = s.version + 1 WHERE s.id = ? AND s.version = ?;
UPDATE t_order o JOIN t_inventory s ON s.product_id = o.product_id SET s.inventory = ?, s.version = s.version + 1 WHERE o.id = ? AND s.version = ?;

-- Relative writes: the database computes the new value.
UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?;
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?;
UPDATE t_inventory SET inventory = GREATEST(inventory - ?, 0) WHERE id = ?;

-- INSERT is not an absolute write; other columns are not counters.
INSERT INTO t_inventory (product_id, inventory) VALUES (?, ?);
INSERT INTO t_inventory SET product_id = ?, inventory = ?;
UPDATE t_order SET status = ? WHERE id = ?;
UPDATE t_inventory SET reserved = ? WHERE id = ?;
UPDATE t_warehouse SET shelf = ? WHERE id = ?;
