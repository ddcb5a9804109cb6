package mybatisplus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/hostcode/java"
)

const plusEntitySrc = `package shop.model;

import com.baomidou.mybatisplus.annotation.*;

@TableName(value = "t_sku", autoResultMap = true)
@Data
public class SkuDO extends BaseDO {
    @TableId("sku_id")
    private Long id;
    @TableField("stock_count")
    private Integer stock;
    @TableField(exist = false)
    private String label;
    @TableField(typeHandler = JacksonTypeHandler.class)
    private List<String> tags;
    @Version
    private Long version;
    private String status;

    public static class Inner {
        @TableField("x")
        private int y;
    }
}
`

func TestEntities(t *testing.T) {
	got := Entities("SkuDO.java", []byte(plusEntitySrc))
	want := []*java.Entity{
		{
			Class: "SkuDO", Package: "shop.model", Table: "t_sku",
			Columns:    map[string]string{"id": "sku_id", "stock": "stock_count"},
			NotColumns: map[string]bool{"label": true}, Key: "id", Version: "version",
		},
		{Class: "Inner", Package: "shop.model", Columns: map[string]string{"y": "x"}, NotColumns: map[string]bool{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Entities (-want +got):\n%s", diff)
	}
	if got := Entities("Plain.java", []byte("class Plain { int a; }")); got != nil {
		t.Errorf("a class without MyBatis-Plus annotations: %v", got)
	}
}

// TestMayUseEntities tells the files that write through entities from
// those that only name the words.
func TestMayUseEntities(t *testing.T) {
	for src, want := range map[string]bool{
		"skuMapper.updateById(sku);":        true,
		"service.lambdaUpdate ().set(a, 1)": true,
		"service.update(w);":                true,
		"int lastupdate(int a);":            false,
		"String update = \"x\";":            false,
	} {
		if got := MayUseEntities([]byte(src)); got != want {
			t.Errorf("MayUseEntities(%q) = %v, want %v", src, got, want)
		}
	}
}
