-- A query naming a column or a table over 64 characters long: no table can
-- have it, and the server refuses the statement.
UPDATE t_inventory SET reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buye = reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buye - ? WHERE id = ?; -- want "^GQ009 not checked: the server refuses this statement: the column name reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buye is 65 characters long"
UPDATE t_inventory SET reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buy = reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buy - ? WHERE id = ? AND reserved_inventory_for_orders_placed_but_not_yet_paid_by_the_buy >= ?;
SELECT id FROM t_order_line_items_kept_for_the_reconciliation_of_partner_invoice WHERE id = ?; -- want "^GQ009 not checked: the server refuses this statement: the table name t_order_line_items_kept_for_the_reconciliation_of_partner_invoice is 65 characters long"
SELECT id FROM t_order_line_items_kept_for_the_reconciliation_of_partner_invoic WHERE id = ?;
-- An alias may be longer: the servers accept it.
SELECT inventory AS inventory_left_after_every_deduction_of_the_orders_of_the_day_so_far FROM t_inventory WHERE id = ? ORDER BY inventory_left_after_every_deduction_of_the_orders_of_the_day_so_far;
