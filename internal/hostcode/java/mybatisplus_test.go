package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

// plusEntities are the entity classes of a SkuDO with a nested class
// (frameworks/mybatisplus reads them from its declaration).
func plusEntities() []*Entity {
	return []*Entity{
		{
			Class: "SkuDO", Package: "shop.model", Table: "t_sku",
			Columns:    map[string]string{"id": "sku_id", "stock": "stock_count"},
			NotColumns: map[string]bool{"label": true}, Key: "id", Version: "version",
		},
		{Class: "Inner", Package: "shop.model", Columns: map[string]string{"y": "x"}, NotColumns: map[string]bool{}},
	}
}

// plusIndex is the entity index of plusEntities, with a schema holding
// the tables tables.
func plusIndex(tables ...string) *EntityIndex {
	has := map[string]bool{}
	for _, t := range tables {
		has[t] = true
	}
	return NewEntityIndex(plusEntities(), func(n string) bool { return has[n] })
}

func TestPlusWrapperSQL(t *testing.T) {
	src := `package shop.mapper;
import shop.model.SkuDO;
public interface SkuMapper extends BaseMapperX<SkuDO> {
    default int a(Long id, int n) {
        return update(null, new LambdaUpdateWrapper<SkuDO>()
                .setSql(" stock_count = stock_count - " + n)
                .eq(SkuDO::getId, id).ge(SkuDO::getStock, n).last("LIMIT 1"));
    }
    default void b(Long id, int n, boolean strict) {
        LambdaUpdateWrapper<SkuDO> w = new LambdaUpdateWrapper<>();
        w.eq(SkuDO::getId, id).ge(strict, SkuDO::getStock, n);
        if (n > 0) {
            w.apply("stock_count >= {0}", n);
        }
        w.set(SkuDO::getStatus, 1).or().in(SkuDO::getStatus, 2, 3);
        update(null, w);
    }
    default void c(Long id) {
        update(new SkuDO().setStatus(1).setLabel("x"), Wrappers.<SkuDO>lambdaUpdate()
                .eq(SkuDO::getId, id).and(q -> q.eq(SkuDO::getStatus, 0).or().isNull(SkuDO::getStatus)));
    }
    default void d(SkuDO given) {
        update(given, new LambdaUpdateWrapper<SkuDO>().set(SkuDO::getStatus, 1));
    }
    default void e(SkuDO old) {
        update(new SkuDO().setStatus(1).setVersion(old.getVersion()), new UpdateWrapper<SkuDO>().eq("sku_id", 1));
    }
    default void f(Long id) {
        update(null, new LambdaUpdateWrapper<ProductDO>().set(ProductDO::getStatus, 1).eq(ProductDO::getId, id));
    }
}
`
	f := ExtractJavaWith("SkuMapper.java", []byte(src), plusIndex("product"))
	type frag struct {
		SQL, ID, Builder string
		Line, Col        int
		Exec             stmt.Exec
		Steps            []stmt.ParamStep
	}
	var got []frag
	for _, fr := range f.Fragments {
		got = append(got, frag{fr.SQL + fr.Unchecked, fr.ID, fr.Builder, fr.Line, fr.Col, *fr.Exec, fr.ParamSteps})
	}
	want := []frag{
		{"UPDATE t_sku SET  stock_count = stock_count - ? WHERE sku_id = ? AND stock_count >= ? LIMIT 1", "a", "MyBatis-Plus LambdaUpdateWrapper chain", 5, 16,
			stmt.Exec{Method: "BaseMapper.update", ResultChecked: true, Returns: stmt.ReturnsCount}, nil},
		// The conditional ge and the apply in an if block are left out.
		{"UPDATE t_sku SET status = ? WHERE sku_id = ? OR status IN (?)", "b", "MyBatis-Plus LambdaUpdateWrapper chain", 16, 9,
			stmt.Exec{Method: "BaseMapper.update", ResultDiscarded: true, Returns: stmt.ReturnsCount}, nil},
		// The entity's non-null properties first, @TableField(exist = false) left out.
		{"UPDATE t_sku SET status = ? WHERE sku_id = ? AND (status = 0 OR status IS NULL)", "c", "MyBatis-Plus LambdaUpdateWrapper chain", 19, 9,
			stmt.Exec{Method: "BaseMapper.update", ResultDiscarded: true, Returns: stmt.ReturnsCount}, nil},
		// d: an entity passed in may carry a version: not rendered.
		// e: the version the entity carries is compared and bumped by the interceptor.
		// an integer literal in a criterion stays one (sku_id = 1).
		{"UPDATE t_sku SET status = ?, version = ? WHERE sku_id = 1 AND version = ?", "e", "MyBatis-Plus UpdateWrapper chain", 26, 9,
			stmt.Exec{Method: "BaseMapper.update", ResultDiscarded: true, Returns: stmt.ReturnsCount}, []stmt.ParamStep{{Param: 1, From: 2}}},
		// ProductDO, declared nowhere, is the product table the schema has.
		{"UPDATE product SET status = ? WHERE id = ?", "f", "MyBatis-Plus LambdaUpdateWrapper chain", 29, 9,
			stmt.Exec{Method: "BaseMapper.update", ResultDiscarded: true, Returns: stmt.ReturnsCount}, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
}

func TestPlusEntityWrites(t *testing.T) {
	src := `package shop.service;
import shop.mapper.SkuMapper;
import shop.model.SkuDO;
public class SkuServiceImpl extends ServiceImpl<SkuMapper, SkuDO> {
    private SkuMapper skuMapper;
    void a(Long id, int n) {
        SkuDO sku = skuMapper.selectById(id);
        sku.setStock(sku.getStock() - n);
        skuMapper.updateById(sku);
    }
    void b(Long id, int n) {
        SkuDO sku = validateExists(id);
        if (sku.getStatus() != 0) {
            throw new IllegalStateException();
        }
        int rows = skuMapper.updateById(new SkuDO().setId(id).setStatus(1).setLabel("x"));
    }
    void c(SkuDO form) {
        updateById(new SkuDO().setId(form.getId()).setStock(form.getStock()));
    }
    void d(Long id) {
        SkuDO sku = skuMapper.selectById(id);
        sku.setVersion(null).setStock(sku.getStock() - 1);
        skuMapper.updateById(sku);
    }
    private SkuDO validateExists(Long id) {
        SkuDO sku = getById(id);
        if (sku == null) {
            throw new IllegalArgumentException();
        }
        return sku;
    }
}
`
	got := ExtractJavaWith("SkuServiceImpl.java", []byte(src), plusIndex()).MapperCalls
	read := &stmt.MapperRead{Variable: "sku", Method: "selectById", Line: 7}
	helper := &stmt.MapperRead{Variable: "sku", Method: "validateExists", Line: 12}
	want := []stmt.MapperCall{
		{
			Mapper: "shop.mapper.SkuMapper", Method: "updateById", Entity: "SkuDO", Record: "sku", RecordRead: read,
			Sets:       []stmt.PropertySet{{Property: "stock", Form: stmt.ValueFromRead, Read: read, Text: "sku.getStock() - n", Line: 8}},
			HostMethod: "a", Framework: "MyBatis-Plus", Advice: plusAdvice, Result: "BaseMapper.updateById", Table: "t_sku", Line: 9, Col: 9, EndLine: 9,
			Columns: map[string]string{"stock": "stock_count"}, VersionCAS: true, ResultDiscarded: true,
		},
		{
			Mapper: "shop.mapper.SkuMapper", Method: "updateById", Entity: "SkuDO", RecordRead: helper,
			Sets: []stmt.PropertySet{
				{Property: "id", Form: stmt.ValueOther, Text: "id", Line: 16},
				{Property: "status", Form: stmt.ValueLiteral, Text: "1", Line: 16},
			},
			HostMethod: "b", Framework: "MyBatis-Plus", Advice: plusAdvice, Result: "BaseMapper.updateById", Table: "t_sku", Line: 16, Col: 20, EndLine: 16,
			Columns: map[string]string{"id": "sku_id", "status": "status"},
		},
		{
			Mapper: "SkuServiceImpl", Method: "updateById", Entity: "SkuDO",
			Sets: []stmt.PropertySet{
				{Property: "id", Form: stmt.ValueOther, Text: "form.getId()", Line: 19},
				{Property: "stock", Form: stmt.ValueOther, Text: "form.getStock()", Line: 19},
			},
			HostMethod: "c", Framework: "MyBatis-Plus", Advice: plusAdvice, Result: "IService.updateById", Table: "t_sku", Line: 19, Col: 9, EndLine: 19,
			Columns: map[string]string{"id": "sku_id", "stock": "stock_count"}, ResultDiscarded: true,
		},
		// setVersion(null): the interceptor has no version to compare.
		{
			Mapper: "shop.mapper.SkuMapper", Method: "updateById", Entity: "SkuDO", Record: "sku",
			RecordRead: &stmt.MapperRead{Variable: "sku", Method: "selectById", Line: 22},
			Sets: []stmt.PropertySet{{Property: "stock", Form: stmt.ValueFromRead, Read: &stmt.MapperRead{Variable: "sku", Method: "selectById", Line: 22},
				Text: "sku.getStock() - 1", Line: 23}},
			HostMethod: "d", Framework: "MyBatis-Plus", Advice: plusAdvice, Result: "BaseMapper.updateById", Table: "t_sku", Line: 24, Col: 9, EndLine: 24,
			Columns: map[string]string{"stock": "stock_count"}, ResultDiscarded: true,
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MapperCalls (-want +got):\n%s", diff)
	}
}

func TestPlusWrapperVariants(t *testing.T) {
	src := `package shop.mapper;
public interface SkuMapper extends BaseMapper<SkuDO> {
    default void a(Long id, int n) {
        String sql;
        if (n > 0) {
            sql = "stock_count = stock_count + " + n;
        } else {
            sql = "stock_count = stock_count - " + -n;
        }
        update(null, new LambdaUpdateWrapper<SkuDO>().setSql(sql).eq(SkuDO::getId, id));
    }
}
`
	var got [][2]string
	for _, fr := range ExtractJavaWith("SkuMapper.java", []byte(src), plusIndex()).Fragments {
		got = append(got, [2]string{fr.SQL + fr.Unchecked, fr.Variant})
	}
	want := [][2]string{
		{"UPDATE t_sku SET stock_count = stock_count + ? WHERE sku_id = ?", " with sql as assigned at line 6"},
		{"UPDATE t_sku SET stock_count = stock_count - ? WHERE sku_id = ?", " with sql as assigned at line 8"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
}

func TestPlusWrapperReferencedClass(t *testing.T) {
	src := `package shop.web;
public class SkuController {
    private SkuService skuService;
    public void close(Long id) {
        skuService.lambdaUpdate().set(SkuDO::getStatus, 2).eq(SkuDO::getId, id).update();
    }
}
`
	var got []string
	for _, fr := range ExtractJavaWith("SkuController.java", []byte(src), plusIndex()).Fragments {
		got = append(got, fr.SQL+fr.Unchecked)
	}
	want := []string{"UPDATE t_sku SET status = ? WHERE sku_id = ?"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
}
