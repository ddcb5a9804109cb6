package schema

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGuardName(t *testing.T) {
	if got := GuardName("uk", "t_order", "order_no"); got != "uk_t_order_order_no" {
		t.Errorf("GuardName = %q", got)
	}
	long1 := GuardName("chk", strings.Repeat("a", 60), "inventory", "nonneg")
	long2 := GuardName("chk", strings.Repeat("a", 60), "inventorz", "nonneg")
	if len(long1) > MaxIdentLen || len(long2) > MaxIdentLen || long1 == long2 {
		t.Errorf("long names %q %q: want distinct and <= %d", long1, long2, MaxIdentLen)
	}
	// A cut inside a multi-byte character would leave invalid UTF-8.
	for pad := 0; pad < 4; pad++ {
		got := GuardName("chk", strings.Repeat("a", pad)+strings.Repeat("库存", 20), "nonneg")
		if len(got) > MaxIdentLen || !utf8.ValidString(got) {
			t.Errorf("GuardName with multi-byte names = %q (%d bytes): want valid UTF-8 within %d bytes", got, len(got), MaxIdentLen)
		}
	}
}

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{"t_order": "t_order", "order": "`order`", "a`b": "`a``b`", "1x": "`1x`", "my-table": "`my-table`", "status": "status"} {
		if got := QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %q, want %q", in, got, want)
		}
	}
}
