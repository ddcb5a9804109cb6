package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDeclarations reads the declarations view frameworks use: types with
// their annotations, extends and implements clauses with type arguments
// qualified by the imports, and fields with their annotations; methods,
// initialisers and nested types are no fields; a nested type is its
// outer type's Inner.
func TestDeclarations(t *testing.T) {
	src := `package com.shop.model;

import javax.persistence.Column;
import javax.persistence.Table;
import javax.persistence.Id;
import tk.mybatis.mapper.common.Mapper;
import com.shop.base.BaseEntity;

@Table(name = "t_stock")
public class Stock extends BaseEntity implements java.io.Serializable {
	private static final long serialVersionUID = 1L;
	@Id
	private Long id;
	@Column(name = "stock_num")
	private Integer stockNum;
	private List<String> tags = new ArrayList<>();
	private int[] slots = {1, 2};
	@Transient private String note;
	static { init(); }
	public Integer getStockNum() { return stockNum; }
	public abstract void touch(int n);
	class Inner { int hidden; }
}

interface StockMapper<T extends Stock, K> extends Mapper<Stock>, Other<Map<String, Long>, Stock> {
	int lockStock(@Param("id") Long id);
}
`
	got := Declarations("Stock.java", []byte(src))
	want := []TypeDecl{{
		Name: "Stock", Qualified: "com.shop.model.Stock", Kind: "class", Line: 10,
		Annotations: []Annotation{{Name: "javax.persistence.Table", Args: map[string]string{"name": "t_stock"}, Line: 9}},
		Extends:     []TypeRef{{Name: "com.shop.base.BaseEntity"}},
		Implements:  []TypeRef{{Name: "java.io.Serializable"}},
		Fields: []FieldDecl{
			{Name: "serialVersionUID", Type: "long", Static: true, Line: 11},
			{Name: "id", Type: "Long", Line: 13, Annotations: []Annotation{{Name: "javax.persistence.Id", Line: 12}}},
			{Name: "stockNum", Type: "Integer", Line: 15, Annotations: []Annotation{{Name: "javax.persistence.Column", Args: map[string]string{"name": "stock_num"}, Line: 14}}},
			{Name: "tags", Type: "List", Line: 16},
			{Name: "slots", Type: "int", Line: 17},
			{Name: "note", Type: "String", Line: 18, Annotations: []Annotation{{Name: "Transient", Line: 18}}},
		},
		Inner: []TypeDecl{{
			Name: "Inner", Qualified: "com.shop.model.Stock.Inner", Kind: "class", Line: 22,
			Fields: []FieldDecl{{Name: "hidden", Type: "int", Line: 22}},
		}},
	}, {
		Name: "StockMapper", Qualified: "com.shop.model.StockMapper", Kind: "interface", Line: 25, Params: []string{"T", "K"},
		Extends: []TypeRef{
			{Name: "tk.mybatis.mapper.common.Mapper", Args: []string{"com.shop.model.Stock"}},
			{Name: "com.shop.model.Other", Args: []string{"com.shop.model.Map", "com.shop.model.Stock"}},
		},
	}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreUnexported(TypeDecl{}, Annotation{})); d != "" {
		t.Errorf("declarations (-want +got):\n%s", d)
	}
	if a := got[0].Annotations[0]; !a.Is("Table", "javax.persistence", "jakarta.persistence") || a.Is("Table", "jakarta.persistence") {
		t.Errorf("Annotation.Is of %s: wrong", a.Name)
	}
	if Declarations("bad.java", []byte("class X {")) != nil {
		t.Error("a file whose brackets do not pair has declarations")
	}
}
