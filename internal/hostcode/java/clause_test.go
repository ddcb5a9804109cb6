package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClauseSets(t *testing.T) {
	src := `package shop;
class BrandService {
    private static final String BY_SORT = "sort desc";
    List<PmsBrand> list(String order, OmsOrderExample other) {
        PmsBrandExample example = new PmsBrandExample();
        example.setOrderByClause("sort desc");
        example.setOrderByClause(BY_SORT + ", id");
        example.setOrderByClause(order);
        other.setOrderByClause("create_time " + order);
        example.setOrderByClause(PmsBrand.Column.sort.desc());
        example.setOrderByClause(this.sort);
        return mapper.selectByExample(example);
    }
}
`
	f := ExtractJava("BrandService.java", []byte(src))
	want := []ClauseSet{
		{Property: "orderByClause", Example: "PmsBrandExample", Constant: true, Line: 6, Col: 17},
		{Property: "orderByClause", Example: "PmsBrandExample", Constant: true, Line: 7, Col: 17},
		{Property: "orderByClause", Example: "PmsBrandExample", Constant: false, Line: 8, Col: 17},
		{Property: "orderByClause", Example: "OmsOrderExample", Constant: false, Line: 9, Col: 15},
		{Property: "orderByClause", Example: "PmsBrandExample", Constant: true, Line: 10, Col: 17},
		{Property: "orderByClause", Example: "PmsBrandExample", Constant: false, Line: 11, Col: 17},
	}
	if d := cmp.Diff(want, f.ClauseSets); d != "" {
		t.Errorf("ClauseSets (-want +got):\n%s", d)
	}
}

func TestClauseSetsReceiverOfUnknownType(t *testing.T) {
	src := `package shop;
class CouponService {
    List<Coupon> list(String sort, String order) {
        CouponUserExample users = new CouponUserExample();
        CouponExample.Criteria criteria = new CouponExample().createCriteria();
        criteria.example().setOrderByClause(sort + " " + order);
        return mapper.selectByExample(criteria.example());
    }
}
`
	f := ExtractJava("CouponService.java", []byte(src))
	if len(f.ClauseSets) != 1 || f.ClauseSets[0].Example != "CouponExample" || f.ClauseSets[0].Constant {
		t.Errorf("ClauseSets = %+v, want one non-constant set on CouponExample", f.ClauseSets)
	}
}
