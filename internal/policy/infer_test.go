package policy

import "testing"

func TestThresholdsAndForeignNumbers(t *testing.T) {
	for col, want := range map[string]bool{"low_stock": true, "min_points": true, "per_limit": true, "warn_qty": true,
		"threshold": true, "stock": false, "lock_stock": false, "limited": false} {
		if got := IsThreshold(col); got != want {
			t.Errorf("IsThreshold(%q) = %v, want %v", col, got, want)
		}
	}
	for col, want := range map[string]bool{"ship_sn": true, "express_no": true, "phone_no": true, "receiver_phone_no": true,
		"order_sn": false, "pay_no": false, "shipment_no": false} {
		if got := IsForeignNumber(col); got != want {
			t.Errorf("IsForeignNumber(%q) = %v, want %v", col, got, want)
		}
	}
	p := Default()
	if p.IsCounter("t", "low_stock") || !p.IsCounter("t", "lock_stock") {
		t.Error("a threshold matched *_stock, or a counter did not")
	}
	p.Schema.CounterColumns = append(p.Schema.CounterColumns, "low_stock")
	if !p.IsCounter("t", "low_stock") {
		t.Error("a pattern naming the threshold exactly must make it a counter")
	}
	if Default().IsBusinessKey("t_order", "express_no") {
		t.Error("*_no made a carrier's number a key")
	}
}

// TestRecordingAndChanged checks the bookkeeping of lint's single pass: a
// recording policy remembers what it was asked, and Changed names exactly
// the columns whose answer the inference turns around.
func TestRecordingAndChanged(t *testing.T) {
	base := Default()
	rec, asked := base.Recording()
	rec.IsCounter("t_sku", "stock_num")
	rec.IsState("t_admin", "status")
	if base.asked != nil {
		t.Fatal("Recording changed the policy it copies")
	}
	inf := &Inferred{
		Counters: map[string]*Evidence{
			Key("t_sku", "stock_num"): {Table: "t_sku", Column: "stock_num"},
			Key("t_sku", "stock"):     {Table: "t_sku", Column: "stock"}, // a counter by name already
		},
		Flags: map[string]*Evidence{Key("t_admin", "status"): {Table: "t_admin", Column: "status"}},
	}
	changed := base.Changed(inf)
	if !changed[Key("t_sku", "stock_num")] || !changed[Key("t_admin", "status")] || changed[Key("t_sku", "stock")] {
		t.Errorf("Changed = %v", changed)
	}
	if !asked.Any(changed) {
		t.Error("the recorded questions do not meet the changed columns")
	}
	if asked.Any(map[string]bool{Key("t_other", "qty"): true}) {
		t.Error("a column never asked about counts as asked")
	}
}
