package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

func TestMapperCalls(t *testing.T) {
	src := `package p;
import com.x.mapper.SkuMapper;
class S {
    private SkuMapper skuMapper;
    void a(long id, int n) {
        Sku sku = skuMapper.selectByPrimaryKey(id);
        sku.setLockStock(sku.getLockStock() + n);
        sku.setStatus(1);
        sku.setNote(note);
        skuMapper.updateByPrimaryKeySelective(sku);
    }
    void b(long id) {
        Sku sku = skuMapper.selectByPrimaryKey(id);
        sku = other();
        skuMapper.updateByPrimaryKey(sku);
    }
    void c(Sku rec, SkuExample given) {
        SkuExample ex = new SkuExample();
        ex.createCriteria().andIdEqualTo(1).andLockStockGreaterThanOrEqualTo(2);
        skuMapper.updateByExampleSelective(rec, ex);
        skuMapper.updateByExample(rec, given);
        skuMapper.deleteByExample(ex.foo());
    }
}
`
	got := ExtractJava("S.java", []byte(src)).MapperCalls
	want := []stmt.MapperCall{
		{
			Mapper: "com.x.mapper.SkuMapper", Method: "updateByPrimaryKeySelective", Entity: "Sku", Record: "sku",
			RecordRead: &stmt.MapperRead{Variable: "sku", Method: "selectByPrimaryKey", Line: 6},
			Sets: []stmt.PropertySet{
				{Property: "lockStock", Form: stmt.ValueFromRead, Read: &stmt.MapperRead{Variable: "sku", Method: "selectByPrimaryKey", Line: 6}, Text: "sku.getLockStock() + n", Line: 7},
				{Property: "status", Form: stmt.ValueLiteral, Text: "1", Line: 8},
				{Property: "note", Form: stmt.ValueOther, Text: "note", Line: 9},
			},
			HostMethod: "a", Line: 10, Col: 9, EndLine: 10,
		},
		// A record assigned again is not the one read.
		{Mapper: "com.x.mapper.SkuMapper", Method: "updateByPrimaryKey", Entity: "Sku", Record: "sku", HostMethod: "b", Line: 15, Col: 9, EndLine: 15},
		{
			Mapper: "com.x.mapper.SkuMapper", Method: "updateByExampleSelective", Entity: "Sku", Record: "rec",
			Criteria:      []stmt.Criterion{{Property: "id", Op: "EqualTo"}, {Property: "lockStock", Op: "GreaterThanOrEqualTo"}},
			CriteriaKnown: true, HostMethod: "c", Line: 20, Col: 9, EndLine: 20,
		},
		// A parameter's criteria are not known.
		{Mapper: "com.x.mapper.SkuMapper", Method: "updateByExample", Entity: "Sku", Record: "rec", HostMethod: "c", Line: 21, Col: 9, EndLine: 21},
		{Mapper: "com.x.mapper.SkuMapper", Method: "deleteByExample", HostMethod: "c", Line: 22, Col: 9, EndLine: 22},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MapperCalls (-want +got):\n%s", diff)
	}
}

func TestPropertyColumn(t *testing.T) {
	for in, want := range map[string]string{"lockStock": "lock_stock", "status": "status", "PmsSkuStock": "pms_sku_stock"} {
		if got := stmt.PropertyColumn(in); got != want {
			t.Errorf("PropertyColumn(%q) = %q, want %q", in, got, want)
		}
	}
}
