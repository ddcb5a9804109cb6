package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

func TestJavaTypes(t *testing.T) {
	src := `package com.x.service.impl;
import com.x.mapper.SkuMapper;
import com.x.service.SkuService;
public class SkuServiceImpl extends Base<Sku> implements SkuService, java.io.Serializable {
    private SkuMapper skuMapper;
    public Sku findById(Long id) {
        return skuMapper.selectByPrimaryKey(id);
    }
    public Sku findOne(Long id) {
        List<Sku> list = skuMapper.selectByExample(example(id));
        if (list.isEmpty()) {
            return null;
        }
        return list.get(0);
    }
    public Sku findOrNew(Long id) {
        Sku s = skuMapper.selectByPrimaryKey(id);
        return s == null ? new Sku() : s;
    }
    public List<Sku> findAll() {
        return skuMapper.selectByExample(null);
    }
    public int update(Sku sku) {
        sku.setUpdateTime(now());
        return skuMapper.updateByPrimaryKeySelective(sku);
    }
    public void maybe(Sku sku, boolean ok) {
        if (ok) {
            skuMapper.updateByPrimaryKeySelective(sku);
        }
    }
    public void twice(Sku sku) {
        skuMapper.updateByPrimaryKey(sku);
        skuMapper.updateByPrimaryKeySelective(sku);
    }
    public void replaced(Sku sku) {
        sku = copy(sku);
        skuMapper.updateByPrimaryKey(sku);
    }
    public void fresh(Long id) {
        Sku sku = new Sku();
        skuMapper.updateByPrimaryKey(sku);
    }
}
`
	got := ExtractJava("SkuServiceImpl.java", []byte(src)).Types
	want := []JavaType{{
		Name:       "com.x.service.impl.SkuServiceImpl",
		Implements: []string{"com.x.service.SkuService", "java.io.Serializable"},
		Wrappers: []WrapperMethod{
			{Method: "findById", Params: 1, Read: "selectByPrimaryKey", ReadMapper: "SkuMapper", Line: 6},
			{Method: "findOne", Params: 1, Read: "selectByExample", ReadMapper: "SkuMapper", Line: 9},
			{Method: "findAll", Read: "selectByExample", ReadMapper: "SkuMapper", ReadList: true, Line: 20},
			{Method: "update", Params: 1, RecordParam: 0, Line: 25, Write: &stmt.MapperCall{
				Mapper: "com.x.mapper.SkuMapper", Method: "updateByPrimaryKeySelective", Entity: "Sku", Record: "sku",
				Sets:       []stmt.PropertySet{{Property: "updateTime", Form: stmt.ValueOther, Text: "now()", Line: 24}},
				HostMethod: "update", Line: 25, Col: 16, EndLine: 25,
			}},
		},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Types (-want +got):\n%s", diff)
	}
}

func TestServiceCalls(t *testing.T) {
	src := `package com.x.web;
import com.x.service.SkuService;
class C {
    private final SkuService skuService;
    private SkuMapper skuMapper;
    void a(Long id, int n) {
        Sku sku = skuService.findById(id);
        sku.setStock(sku.getStock() - n);
        this.skuService.update(sku);
    }
    void b(Sku form, Long id) {
        Sku old = skuService.findById(id);
        form.setStatus(old.getStatus() + 1);
        skuService.save(id, form);
        skuMapper.updateByPrimaryKey(form);
        log.info(form);
        skuService.touch(form);
    }
    void c(List<Sku> given) {
        List<Sku> rows = skuService.findAll();
        for (Sku row : rows) {
            row.setStatus(2);
            skuService.update(row);
        }
        for (Sku g : given) {
            g.setStatus(3);
            skuService.update(g);
        }
    }
}
`
	f := ExtractJava("C.java", []byte(src))
	read7 := &stmt.MapperRead{Variable: "sku", Method: "findById", Line: 7, Service: "com.x.service.SkuService", Via: "skuService.findById", Args: 1}
	read12 := &stmt.MapperRead{Variable: "old", Method: "findById", Line: 12, Service: "com.x.service.SkuService", Via: "skuService.findById", Args: 1}
	setB := []stmt.PropertySet{{Property: "status", Form: stmt.ValueFromRead, Read: read12, Text: "old.getStatus() + 1", Line: 13}}
	want := []stmt.MapperCall{
		{
			Mapper: "com.x.service.SkuService", Method: "update", Entity: "Sku", Record: "sku", RecordRead: read7,
			Sets:       []stmt.PropertySet{{Property: "stock", Form: stmt.ValueFromRead, Read: read7, Text: "sku.getStock() - n", Line: 8}},
			HostMethod: "a", Line: 9, Col: 14, EndLine: 9, Via: "skuService.update", ViaArgs: 1,
		},
		{
			Mapper: "com.x.service.SkuService", Method: "save", Entity: "Sku", Record: "form", Sets: setB,
			HostMethod: "b", Line: 14, Col: 9, EndLine: 14, Via: "skuService.save", ViaArgs: 2, ViaRecord: 1,
		},
		{
			Mapper: "com.x.service.SkuService", Method: "touch", Entity: "Sku", Record: "form", Sets: setB,
			HostMethod: "b", Line: 17, Col: 9, EndLine: 17, Via: "skuService.touch", ViaArgs: 1,
		},
		{
			Mapper: "com.x.service.SkuService", Method: "update", Entity: "Sku", Record: "row",
			RecordRead: &stmt.MapperRead{Variable: "row", Method: "findAll", Line: 21, Service: "com.x.service.SkuService", Via: "skuService.findAll", List: true},
			Sets:       []stmt.PropertySet{{Property: "status", Form: stmt.ValueLiteral, Text: "2", Line: 22}},
			HostMethod: "c", Line: 23, Col: 13, EndLine: 23, Via: "skuService.update", ViaArgs: 1,
		},
		// A loop over a list given to the method reads nothing.
		{
			Mapper: "com.x.service.SkuService", Method: "update", Entity: "Sku", Record: "g",
			Sets:       []stmt.PropertySet{{Property: "status", Form: stmt.ValueLiteral, Text: "3", Line: 26}},
			HostMethod: "c", Line: 27, Col: 13, EndLine: 27, Via: "skuService.update", ViaArgs: 1,
		},
	}
	if diff := cmp.Diff(want, f.ServiceCalls); diff != "" {
		t.Errorf("ServiceCalls (-want +got):\n%s", diff)
	}
	// The direct mapper call keeps the read through the service for lint to resolve.
	if len(f.MapperCalls) != 1 || f.MapperCalls[0].Sets[0].Read == nil || f.MapperCalls[0].Sets[0].Read.Service == "" {
		t.Errorf("MapperCalls = %+v, want the setter's read through skuService", f.MapperCalls)
	}
}
