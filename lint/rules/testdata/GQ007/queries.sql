-- Every locking clause is reported, whatever its options.
SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE; -- want "^GQ007 SELECT … FOR UPDATE takes a row lock on one primary only"
SELECT inventory FROM t_inventory WHERE id = ? FOR SHARE; -- want "GQ007 SELECT … FOR SHARE / LOCK IN SHARE MODE takes"
SELECT inventory FROM t_inventory WHERE id = ? LOCK IN SHARE MODE; -- want "GQ007 SELECT … FOR SHARE / LOCK IN SHARE MODE takes"
SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE NOWAIT; -- want "GQ007 SELECT … FOR UPDATE NOWAIT takes"
SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE SKIP LOCKED; -- want "GQ007 SELECT … FOR UPDATE SKIP LOCKED takes"
SELECT inventory FROM t_inventory WHERE id = ? FOR SHARE NOWAIT; -- want "GQ007 SELECT … FOR SHARE NOWAIT takes"
SELECT inventory FROM t_inventory WHERE id = ? FOR SHARE SKIP LOCKED; -- want "GQ007 SELECT … FOR SHARE SKIP LOCKED takes"
SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE WAIT 5; -- want "GQ007 SELECT … FOR UPDATE WAIT n takes"

-- The statement is reported on its first line, the clause may stand later.
SELECT o.status, o.version -- want "GQ007 .*replicas, shards or read/write splitting"
  FROM t_order o
 WHERE o.order_no = ?
   FOR UPDATE;

-- A lock taken inside a subquery, an INSERT … SELECT or a UNION locks just the same.
SELECT id FROM t_order WHERE inventory_id IN (SELECT id FROM t_inventory WHERE inventory > 0 FOR UPDATE); -- want "GQ007"
INSERT INTO t_order (id, order_no, inventory_id) SELECT ?, ?, id FROM t_inventory WHERE id = ? FOR UPDATE; -- want "GQ007"
(SELECT id FROM t_inventory WHERE id = ? FOR UPDATE) UNION ALL (SELECT id FROM t_order WHERE id = ?); -- want "GQ007"
SELECT i.inventory FROM t_order o JOIN t_inventory i ON i.id = o.inventory_id WHERE o.id = ? FOR UPDATE OF i; -- want "GQ007"

-- Not locking reads.
SELECT inventory FROM t_inventory WHERE id = ?;
SELECT 'FOR UPDATE' AS note FROM t_inventory WHERE id = ?;
/* SELECT inventory FROM t_inventory FOR UPDATE; */
UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?;
(SELECT id FROM t_inventory) UNION (SELECT id FROM t_order);

-- guard:ignore GQ007 single-primary batch job, no replicas or shards
SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE;
