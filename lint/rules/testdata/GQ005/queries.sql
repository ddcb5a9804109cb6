-- GQ005 unchecked-state-transition: a state change names the state it leaves (or a version).

UPDATE t_order SET status = 'paid' WHERE id = ?; -- want "GQ005 state column t_order.status is set to 'paid' without a predicate on status or version in WHERE"
UPDATE t_order SET status = ?, updated_at = NOW() WHERE order_no = ?; -- want "GQ005"
UPDATE t_order o SET o.status = 'paid' WHERE o.id = ?; -- want "GQ005 .*t_order.status"
UPDATE t_order SET status = 'paid' WHERE id = ? OR status = 'pending'; -- want "GQ005"
UPDATE t_order SET status = 'paid' WHERE id IN (SELECT id FROM t_payment WHERE status = 'ok'); -- want "GQ005"
UPDATE t_inventory SET status = 'off', version = version + 1 WHERE id = ?; -- want "GQ005 .*t_inventory.status"
UPDATE t_task SET state = 'done' WHERE id = ?; -- want "GQ005 state column t_task.state"
-- The predicate on the other table's status does not check this one.
UPDATE t_order o JOIN t_payment p ON p.order_no = o.order_no SET o.status = 'paid' WHERE p.pay_no = ? AND p.status = 'ok'; -- want "GQ005 .*t_order.status"

-- Checked transitions.
UPDATE t_order SET status = 'paid' WHERE id = ? AND status = 'pending';
UPDATE t_order SET status = 'cancelled' WHERE id = ? AND status IN ('pending', 'paid');
UPDATE t_order SET status = 'cancelled' WHERE id = ? AND status <> 'shipped';
UPDATE t_order SET status = 'cancelled' WHERE id = ? AND (status = 'pending' OR status = 'paid');
UPDATE t_order o SET o.status = 'paid' WHERE o.id = ? AND o.status = 'pending';
UPDATE t_order o JOIN t_payment p ON p.order_no = o.order_no SET o.status = 'paid' WHERE p.pay_no = ? AND o.status = 'pending';
UPDATE t_task SET state = 'done' WHERE id = ? AND state = 'running';
-- A version CAS checks the whole row.
UPDATE t_inventory SET status = 'off', version = version + 1 WHERE id = ? AND version = ?;

-- Not state columns.
UPDATE t_order SET updated_at = NOW() WHERE id = ?;
UPDATE t_order SET amount = ? WHERE id = ?;
INSERT INTO t_order (order_no, product_id, quantity, amount, status) VALUES (?, ?, ?, ?, 'pending');

-- An optimistic lock on a timestamp the write also sets is a compare-and-set
-- of the row: only one writer that read it finds it unchanged.
UPDATE t_order SET status = 'paid', updated_at = ? WHERE id = ? AND updated_at = ?;
-- A filter on a column the write does not set is not.
UPDATE t_order SET status = 'paid' WHERE id = ? AND updated_at = ?; -- want "GQ005 state column t_order.status"
-- Repeating the key in the SET list compares nothing.
UPDATE t_order SET id = ?, status = 'paid' WHERE id = ?; -- want "GQ005 state column t_order.status"
