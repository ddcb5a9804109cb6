-- Inferred counter: the unguarded decrement is reported with its evidence.
UPDATE t_sku SET stock_num = stock_num - ?, version = version + 1 WHERE id = ?; -- want "GQ002 decrement of counter t_sku.stock_num .*inferred counter: decremented at testdata/infer/SkuMapper.xml:6"

-- Inferred state: the conditioned transition is the evidence, and is safe.
UPDATE t_coupon_history SET use_status = 1 WHERE id = ? AND use_status = 0;
UPDATE t_coupon_history SET use_status = 0 WHERE id = ?; -- want "GQ005 state column t_coupon_history.use_status .*inferred state: compared and set by one UPDATE at testdata/infer/queries.sql:5"

-- A flag, switched off and on by an admin screen: silent.
UPDATE t_admin SET status = 0 WHERE id = ?;
UPDATE t_admin SET status = 1 WHERE id = ?;

-- A state by its name that takes a third value: still a state machine.
UPDATE t_order SET status = 2 WHERE id = ?; -- want "GQ005 state column t_order.status"

-- A filter and a soft delete: silent.
UPDATE t_goods SET stock = stock - ?, version = version + 1 WHERE id = ? AND stock >= ? AND sell_status = 0;
UPDATE t_goods SET sell_status = ?, version = version + 1 WHERE id IN (?, ?);
UPDATE t_goods SET is_deleted = 1, version = version + 1 WHERE id = ? AND is_deleted = 0;
UPDATE t_goods SET is_deleted = 1, version = version + 1 WHERE id IN (?, ?);

-- A status-named column stepped through values: a state machine by
-- inference; one only switched on and off is not.
UPDATE t_refund_log SET refund_status = 3 WHERE id IN (?, ?); -- want "GQ005 state column t_refund_log.refund_status .*inferred state: set to 3 at testdata/infer/queries.sql:23 [(]2 statements[)]"
UPDATE t_refund_log SET refund_status = 4 WHERE id = ?; -- want "GQ005 state column t_refund_log.refund_status .*inferred state: set to 3 at testdata/infer/queries.sql:23 [(]2 statements[)]"
UPDATE t_refund_log SET show_status = 0 WHERE id = ?;
UPDATE t_refund_log SET show_status = 1 WHERE id = ?;

-- Written only from parameters, the code says nothing: the definition
-- decides. Its comment lists four states: a state machine.
UPDATE t_aftersale SET after_status = ? WHERE id = ?; -- want "GQ005 state column t_aftersale.after_status .*inferred state: its definition lists 4 states"
-- A comment listing two values: a switch, silent.
UPDATE t_member SET status = ? WHERE id = ?;
-- A soft-delete mark stepped to a third value is still not a state machine.
UPDATE t_aftersale SET delete_status = 2 WHERE id IN (?, ?);

-- A rename moves one parameter to another: the column names a row, it is
-- not a state machine, and the DELETE keyed on it is no transition.
UPDATE t_member SET nickname = ? WHERE nickname = ? AND id = ?;

-- A ledger row the code moves: its balance is a counter after all.
UPDATE t_points_log SET balance = balance - ?, version = version + 1 WHERE id = ? AND balance >= ?;

-- A selective update whose optional tenant filter keeps rows without a
-- seller (`= ''`): the empty string names no state, so setting the column
-- is no transition.
UPDATE t_buyer SET buyer_name = ?, tenant_tag = ? WHERE id = ? AND tenant_tag = '';
UPDATE t_buyer SET tenant_tag = ? WHERE id = ?;
