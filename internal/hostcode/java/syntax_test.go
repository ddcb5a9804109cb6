package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSyntax reads the views frameworks use of a file: its calls (a plain
// or this. receiver with its declared type, whether a call is a statement
// of its own), their name arguments, what a method shows of a record, and
// its methods with their header and class annotations.
func TestSyntax(t *testing.T) {
	src := `package shop;

import shop.repo.StockRepository;
import org.springframework.transaction.annotation.Transactional;

@Transactional(readOnly = true)
public class StockService {
    private StockRepository stocks;

    @Transactional("txManager")
    public void take(Long id, int n) {
        Stock s = stocks.findById(id).orElseThrow();
        s.setQty(s.getQty() - n);
        this.stocks.save(s);
        if (stocks.count() > 0) {
            a.b.touch();
        }
    }

    public int peek() { return stocks.count(); }
}
`
	x := readJavaFile("StockService.java", []byte(src))
	if x == nil {
		t.Fatal("file not read")
	}
	s := Syntax{x}
	calls := s.Calls(func(m string, statement bool) bool { return m != "orElseThrow" })
	var got []string
	for _, c := range calls {
		got = append(got, c.Receiver+"."+c.Method+" "+c.ReceiverType+" in "+c.Host+map[bool]string{true: " statement", false: ""}[c.Statement])
	}
	want := []string{
		"stocks.findById shop.repo.StockRepository in take",
		"s.setQty Stock in take statement",
		"s.getQty Stock in take",
		"stocks.save shop.repo.StockRepository in take statement",
		"stocks.count shop.repo.StockRepository in take",
		"stocks.count shop.repo.StockRepository in peek",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	save := calls[3]
	name, ok := s.NameArgument(save, 0)
	if !ok || name != "s" {
		t.Fatalf("argument of save: %q, %v", name, ok)
	}
	if r := s.Record(save, name); r.Type != "Stock" || r.Read == nil || r.Read.Method != "findById" || len(r.Sets) != 1 || r.Sets[0].Property != "qty" {
		t.Errorf("record %+v", r)
	}
	ms := s.Methods()
	if len(ms) != 2 || ms[0].Name != "take" || !ms[0].Public || len(ms[0].Annotations) != 1 || !ms[0].Annotations[0].Bare ||
		ms[0].Annotations[0].Args["value"] != "txManager" || len(ms[0].ClassAnnotations) != 1 || ms[0].ClassAnnotations[0].Args["readOnly"] != "true" {
		t.Errorf("methods %+v", ms)
	}
	if ls := s.ReadLocals(ms[0]); len(ls) != 1 || ls[0].Name != "s" || ls[0].ReceiverType != "shop.repo.StockRepository" {
		t.Errorf("read locals %+v", ls)
	}
	if s.Imported("Transactional") != "org.springframework.transaction.annotation" || s.Annotated(".Entity") {
		t.Error("imports or annotations misread")
	}
}
