package rules

import "testing"

func TestCommentCodes(t *testing.T) {
	for _, tt := range []struct {
		comment string
		want    int
	}{
		{"订单状态：0->待付款；1->待发货；2->已发货；3->已完成；4->已关闭；5->无效订单", 6},
		{"0新建未支付,1已支付,2已发货,3已收货,4已退款,5已完成", 6},
		{"1 有效 2 失效", 2},
		{"1正常,0下线", 2},
		{"帐号启用状态：0->禁用；1->启用", 2},
		{"0 unused, 1 used, 2 expired, 3 withdrawn", 4},
		{"101 created, 102 cancelled, 201 paid, 301 shipped", 4},
		{"上下线状态", 0},
		{"discount 12.5% off, version 2.0", 0},
		{"sku v2 of the catalogue, item3", 0},
		{"max 1,000 units", 0},
		{"", 0},
	} {
		if got := commentCodes(tt.comment); got != tt.want {
			t.Errorf("commentCodes(%q) = %d, want %d", tt.comment, got, tt.want)
		}
	}
}
