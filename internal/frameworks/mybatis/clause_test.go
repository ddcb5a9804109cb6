package mybatis

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// setsOf extracts src and returns its clause setters.
func setsOf(t *testing.T, name, src string) []ClauseSet {
	t.Helper()
	return Of(java.ExtractJava(name, []byte(src))).ClauseSets
}

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
	type brief struct {
		Example, Call string
		Local         bool
		Line, Col     int
	}
	var got []brief
	for _, cs := range setsOf(t, "BrandService.java", src) {
		got = append(got, brief{cs.Example, cs.Call, cs.Value.Local(), cs.Line, cs.Col})
	}
	want := []brief{
		{"PmsBrandExample", `example.setOrderByClause("sort desc")`, true, 6, 9},
		{"PmsBrandExample", `example.setOrderByClause(BY_SORT + ", id")`, true, 7, 9},
		{"PmsBrandExample", `example.setOrderByClause(order)`, false, 8, 9},
		{"OmsOrderExample", `other.setOrderByClause("create_time " + order)`, false, 9, 9},
		{"PmsBrandExample", `example.setOrderByClause(PmsBrand.Column.sort.desc())`, true, 10, 9},
		{"PmsBrandExample", `example.setOrderByClause(this.sort)`, false, 11, 9},
	}
	if d := cmp.Diff(want, got); d != "" {
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
	sets := setsOf(t, "CouponService.java", src)
	if len(sets) != 1 || sets[0].Example != "CouponExample" || sets[0].Value.Local() {
		t.Errorf("ClauseSets = %+v, want one unchecked set on CouponExample", sets)
	}
	if d := cmp.Diff([]string{"sort", "order"}, sets[0].Value.Unchecked); d != "" {
		t.Errorf("unchecked parts (-want +got):\n%s", d)
	}
}

// openLines returns the lines of the clause setters of files that
// NewIndex leaves open (set to a value no check vouches for), and how many
// setters the files hold.
func openLines(t *testing.T, files map[string]string) ([]int, int) {
	t.Helper()
	var jfs []*java.File
	sets := 0
	for _, name := range slices.Sorted(maps.Keys(files)) {
		jf := java.ExtractJava(name, []byte(files[name]))
		if f := Of(jf); f != nil {
			sets += len(f.ClauseSets)
		}
		jfs = append(jfs, jf)
	}
	var out []int
	for _, cs := range NewIndex(jfs).Setters(&stmt.Fragment{}, "orderByClause") {
		out = append(out, cs.Line)
	}
	return out, sets
}
