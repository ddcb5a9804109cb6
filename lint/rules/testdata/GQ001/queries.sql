-- GQ001 write-without-where: writes that touch every row.

-- No WHERE at all; LIMIT and ORDER BY do not restrict which rows qualify.
UPDATE t_order SET status = 'closed'; -- want "GQ001 UPDATE has no WHERE: it writes every row of t_order"
DELETE FROM t_log; -- want "GQ001 DELETE has no WHERE"
DELETE FROM t_log ORDER BY id LIMIT 100; -- want "GQ001 DELETE has no WHERE"
UPDATE t_order -- want "GQ001"
   SET status = 'closed',
       updated_at = NOW();

-- Always-true WHERE clauses.
UPDATE t_order SET status = 'closed' WHERE 1 = 1; -- want "GQ001 UPDATE has an always-true WHERE"
DELETE FROM t_log WHERE 1; -- want "GQ001 .*always-true"
DELETE FROM t_log WHERE TRUE; -- want "GQ001 .*always-true"
UPDATE t_order SET status = 'closed' WHERE 'a' = 'a'; -- want "GQ001 .*always-true"
DELETE FROM t_log WHERE (1 = 1) AND (2 > 1); -- want "GQ001 .*always-true"
DELETE FROM t_log WHERE 1 OR id = ?; -- want "GQ001 .*always-true"
DELETE FROM t_log WHERE id = ? OR 1 = 1; -- want "GQ001 .*always-true"
DELETE FROM t_log WHERE NOT 0; -- want "GQ001 .*always-true"

-- Joins: an outer join or a comma join without WHERE restricts nothing.
UPDATE t_order o LEFT JOIN t_payment p ON p.order_no = o.order_no SET o.status = 'closed'; -- want "GQ001 UPDATE has no WHERE"
UPDATE t_order o, t_payment p SET o.status = p.status; -- want "GQ001 UPDATE has no WHERE"
UPDATE t_order o JOIN t_payment p ON 1 = 1 SET o.status = 'closed'; -- want "GQ001 .*JOIN conditions are always true"
UPDATE t_unknown SET flag = 1; -- want "GQ001 UPDATE has no WHERE: it writes every row of t_unknown"

-- Restricted writes are fine.
UPDATE t_order SET status = 'closed' WHERE id = ?;
DELETE FROM t_log WHERE created_at < ?;
DELETE FROM t_log WHERE 1 = 1 AND id = ?;
DELETE FROM t_log WHERE id = ? OR id = ?;
DELETE FROM t_log WHERE 1 = 0;
DELETE FROM t_log WHERE 'a' = 'b';
-- Comparing a column with itself depends on NULLs: not reported.
DELETE FROM t_log WHERE id = id;
-- The ON condition of an inner join restricts the rows written.
UPDATE t_order o JOIN t_payment p ON p.order_no = o.order_no SET o.status = p.status;
DELETE o FROM t_order o JOIN t_payment p ON p.order_no = o.order_no;
-- Not UPDATE or DELETE.
INSERT INTO t_log (msg, created_at) VALUES ('x', NOW());
SELECT * FROM t_log;
-- guard:ignore GQ001 the nightly purge empties this table on purpose
DELETE FROM t_log;
