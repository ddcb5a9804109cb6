package java

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNegatedArgs reads the calls that pass a negated amount, in each
// form, and a record whose property is set so before it is passed; the
// twins that pass a positive amount, or only a negative sum, stay out.
func TestNegatedArgs(t *testing.T) {
	src := `package shop;

class StockService {
    private StockMapper stockMapper;

    void take(long id, int qty, Req req, BigDecimal amount) {
        stockMapper.addStock(id, -qty);
        addStock(id, 0 - qty);
        this.stockMapper.addStock(id, -1);
        stockMapper.addStock(id, -1 * qty);
        stockMapper.addStock(id, qty * -1);
        stockMapper.addStock(id, -req.getAmount());
        stockMapper.addBalance(id, amount.negate());
        stockMapper.addStock(id, -(long) qty);
        StockDelta d = new StockDelta();
        d.setId(id);
        d.setDelta(-qty);
        stockMapper.applyDelta(d);
        d = new StockDelta();
        stockMapper.applyDelta(d);
    }

    void twins(long id, int qty) {
        stockMapper.addStock(id, qty);
        stockMapper.addStock(id, -qty + 5);
        stockMapper.addStock(id, 5 - qty);
        stockMapper.addStock(id, - -qty);
        if (-qty > 0) {
            return;
        }
        new StockDelta(-1);
    }

    int addStock(long id, int delta) { return 0; }
}
`
	var got []string
	for _, n := range ExtractJava("StockService.java", []byte(src)).NegatedArgs {
		got = append(got, fmt.Sprintf("%d: %s arg %d of %d %s: %s", n.Line, n.Func, n.Arg, n.Args, n.Prop, n.Text))
	}
	want := []string{
		"7: addStock arg 1 of 2 : -qty",
		"8: addStock arg 1 of 2 : 0 - qty",
		"9: addStock arg 1 of 2 : -1",
		"10: addStock arg 1 of 2 : -1 * qty",
		"11: addStock arg 1 of 2 : qty * -1",
		"12: addStock arg 1 of 2 : -req.getAmount()",
		"13: addBalance arg 1 of 2 : amount.negate()",
		"14: addStock arg 1 of 2 : -(long) qty",
		"17: setDelta arg 0 of 1 : -qty",
		"18: applyDelta arg 0 of 1 delta: d (d.setDelta(-qty) at line 17)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("negated arguments (-want +got):\n%s", d)
	}
}
