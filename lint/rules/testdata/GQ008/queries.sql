-- ON DUPLICATE KEY UPDATE assigning a counter, relative or absolute.
INSERT INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE inventory = inventory - VALUES(inventory); -- want "^GQ008 INSERT … ON DUPLICATE KEY UPDATE writes counter inventory: the update has no WHERE"
INSERT INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE inventory = VALUES(inventory); -- want "GQ008 INSERT … ON DUPLICATE KEY UPDATE writes counter inventory"
INSERT INTO t_account (id, balance) -- want "GQ008 .*writes counter balance"
VALUES (?, ?)
ON DUPLICATE KEY UPDATE balance = balance + VALUES(balance), version = version + 1;

-- INSERT IGNORE whose columns include a counter: named, SET form, or every column.
INSERT IGNORE INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?); -- want "GQ008 INSERT IGNORE writes counter inventory: IGNORE turns the errors that guard it into warnings"
INSERT IGNORE INTO t_account SET id = ?, balance = ?; -- want "GQ008 INSERT IGNORE writes counter balance"
INSERT IGNORE INTO t_account VALUES (?, ?, 0); -- want "GQ008 INSERT IGNORE writes counter balance"
INSERT IGNORE INTO t_inventory (id, sku, inventory) SELECT id + 1000, CONCAT(sku, '-b'), inventory FROM t_inventory WHERE id = ?; -- want "GQ008 INSERT IGNORE writes counter inventory"

-- REPLACE deletes and re-inserts: the counter is overwritten.
REPLACE INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?); -- want "GQ008 REPLACE writes counter inventory: it deletes the row"
REPLACE INTO t_account SET id = ?, balance = ?; -- want "GQ008 REPLACE writes counter balance"

-- Both IGNORE and ON DUPLICATE KEY UPDATE on one counter: one finding.
INSERT IGNORE INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE inventory = inventory + 1; -- want "GQ008 INSERT … ON DUPLICATE KEY UPDATE writes counter inventory"

-- A table the schema does not know: the policy's column names decide.
INSERT INTO t_wallet (user_id, points) VALUES (?, ?) ON DUPLICATE KEY UPDATE points = points + VALUES(points); -- want "GQ008 .*writes counter points"
INSERT INTO t_wallet (user_id, nickname) VALUES (?, ?) ON DUPLICATE KEY UPDATE nickname = VALUES(nickname);

-- Upserts that leave the counters alone.
INSERT INTO t_inventory (id, sku, inventory) VALUES (?, ?, 0) ON DUPLICATE KEY UPDATE note = VALUES(note);
INSERT IGNORE INTO t_request_log (request_id, created_at) VALUES (?, NOW());
INSERT IGNORE INTO t_inventory (id, sku, note) VALUES (?, ?, ?);
INSERT IGNORE INTO t_request_log VALUES (?, NOW());
REPLACE INTO t_request_log (request_id, created_at) VALUES (?, NOW());
INSERT INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?);
INSERT INTO t_account (id, balance) VALUES (?, ?) ON DUPLICATE KEY UPDATE version = version + 1;
UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?;

-- guard:ignore GQ008 one-off backfill, run with the shop closed
REPLACE INTO t_inventory (id, sku, inventory) VALUES (?, ?, ?);
