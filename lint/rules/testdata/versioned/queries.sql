-- Read in code, written back absolute (GQ003 at the statement).
SELECT stock FROM t_stock_rmw WHERE id = ?;

UPDATE t_stock_rmw SET stock = ? WHERE id = ?;

UPDATE t_stock_rel SET stock = stock - ? WHERE id = ? AND stock >= ?;

UPDATE t_stock_rel SET stock = stock + ? WHERE id = ?;

UPDATE t_order_cas SET status = 1 WHERE id = ? AND status = 0;

UPDATE t_order_cas SET status = 2 WHERE id = ? AND status = 1;

-- Bare transition, and a second writer of the same state.
UPDATE t_order_two SET status = 3 WHERE id = ?;

UPDATE t_order_two SET status = 4 WHERE id = ? AND status = 3;

INSERT INTO t_ticket (id, status) VALUES (?, 0);

UPDATE t_sku_form SET stock = stock - ? WHERE id = ? AND stock >= ?;

REPLACE INTO t_sku_form (id, stock) VALUES (?, ?);

UPDATE t_promo SET status = ? WHERE id = ?;

INSERT INTO t_order_line (id, quantity) VALUES (?, ?);

UPDATE t_cart_line SET quantity = quantity + ?, version = version + 1 WHERE id = ?;

INSERT INTO t_checkout_line (id, quantity) VALUES (?, ?);
