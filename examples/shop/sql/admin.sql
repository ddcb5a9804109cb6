-- Maintenance queries run by hand from the admin console.

-- safe: close orders that were never paid, and only those.
UPDATE t_order
   SET status = 'CLOSED', version = version + 1
 WHERE status = 'NEW'
   AND id IN (SELECT order_id FROM t_payment WHERE status = 'EXPIRED');

-- unsafe GQ001: the filters were meant to follow `WHERE 1 = 1`; as it stands every order is deleted.
DELETE FROM t_order WHERE 1 = 1;

-- unsafe GQ004: t_product is versioned; a write that does not bump the version is overwritten by CAS writers.
UPDATE t_product SET name = 'Gift card' WHERE sku = 'GIFT-01';
