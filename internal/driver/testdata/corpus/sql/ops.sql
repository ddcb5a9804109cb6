/* Operations runbook queries.
   Some are meant to be run by hand. */

-- 1. restock, schema-qualified and back-quoted
UPDATE `shop`.`t_sku_stock`
   SET `available_stock` = `available_stock` + 100, `version` = `version` + 1
 WHERE `sku_code` = 'SKU-1';

-- 2. lock-then-deduct with a comment inside the statement
UPDATE t_sku_stock
   SET available_stock = available_stock - 1, -- take one
       locked_stock = locked_stock + 1,
       version = version + 1
 WHERE sku_code = ? AND available_stock > 0;

-- 3. JOIN update (multi-table)
UPDATE t_sku_stock s
  JOIN t_coupon_grant g ON g.user_id = s.id
   SET s.locked_stock = s.locked_stock - 1, s.version = s.version + 1
 WHERE g.request_id = ?;

-- 4. upsert that adds points
INSERT INTO t_wallet (user_id, points) VALUES (?, 10)
    ON DUPLICATE KEY UPDATE points = points + 10, version = version + 1;

-- 5. MariaDB: DELETE ... RETURNING
DELETE FROM t_coupon_grant WHERE id = ? RETURNING id, request_id;

-- 6. CTE
WITH hot AS (SELECT id FROM t_sku_stock WHERE available_stock < 10)
SELECT s.* FROM t_sku_stock s JOIN hot ON hot.id = s.id;

-- 7. window function
SELECT user_id, balance, RANK() OVER (ORDER BY balance DESC) AS r FROM t_wallet;

-- 8. INSERT IGNORE on a counter table
INSERT IGNORE INTO t_wallet (user_id, balance) VALUES (?, 0);

-- 9. REPLACE on a counter
REPLACE INTO t_wallet (user_id, balance, version) VALUES (?, ?, 0);

-- 10. state transition guarded by state
UPDATE t_coupon_grant SET state = 2, version = version + 1 WHERE id = ? AND state IN (0, 1);

-- 11. MariaDB sequence syntax guard does not know
SELECT NEXTVAL(seq_orders);

-- 12. typo: does not parse
UPDATE t_wallet SET balance = balance - ? WHER user_id = ?;

-- 13. executable comment
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE */;

-- 14. LOCK IN SHARE MODE
SELECT balance FROM t_wallet WHERE user_id = ? LOCK IN SHARE MODE;

-- 15. unguarded decrement with LIMIT
UPDATE t_wallet SET points = points - 5, version = version + 1 WHERE user_id = ? LIMIT 1;

-- 16. guard with x <= c
UPDATE t_wallet SET balance = balance - ?, version = version + 1 WHERE user_id = ? AND ? <= balance;

-- 17. guard with c - x >= 0
UPDATE t_wallet SET balance = balance - ?, version = version + 1 WHERE user_id = ? AND balance - ? >= 0;

-- 18. IF clamp
UPDATE t_wallet SET points = IF(points >= ?, points - ?, 0), version = version + 1 WHERE user_id = ?;
