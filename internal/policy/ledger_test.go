package policy

import "testing"

func TestIsLedgerAndOrderRecord(t *testing.T) {
	for table, want := range map[string]bool{
		"t_points_log": true, "user_seckill_record_0": true, "user_seckill_record_12": true,
		"t_stock": false, "record": false, "t_stock_0": false, "t_log_x": false,
	} {
		if got := IsLedger(table); got != want {
			t.Errorf("IsLedger(%q) = %v, want %v", table, got, want)
		}
	}
	for table, want := range map[string]bool{
		"t_order": true, "orders": true, "oms_order_item": true, "seckill_orders_3": true,
		"t_reorder": false, "t_stock": false,
	} {
		if got := IsOrderRecord(table); got != want {
			t.Errorf("IsOrderRecord(%q) = %v, want %v", table, got, want)
		}
	}
}
