package jpa

import (
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// testMapping is an entity Product on t_product with a to-one shop.
func testMapping(entity string) (*Mapping, string) {
	if entity != "Product" && entity != "shop.Product" {
		return nil, "no @Entity named " + entity
	}
	return &Mapping{
		Entity: &Entity{Name: "Product", Class: "Product"}, Table: "t_product",
		Fields: map[string]MappedField{
			"id":       {Field: Field{Name: "id", ID: true}, Column: "id"},
			"quantity": {Field: Field{Name: "quantity"}, Column: "stock"},
			"status":   {Field: Field{Name: "status"}, Column: "status"},
			"shop":     {Field: Field{Name: "shop", Relation: true}, Column: "shop_id", TargetID: "id"},
			"tags":     {Field: Field{Name: "tags", Relation: true, ToMany: true}},
		},
	}, ""
}

func TestJPQLRender(t *testing.T) {
	cases := []struct {
		jpql, sql, why string
	}{
		{jpql: "update Product p set p.quantity = p.quantity - :n where p.id = :id",
			sql: "update `t_product` p set p.`stock` = p.`stock` - ? where p.`id` = ?"},
		{jpql: "UPDATE Product AS p SET p.quantity = p.quantity - ?1 WHERE p.id = ?2 AND p.quantity >= ?1",
			sql: "UPDATE `t_product` AS p SET p.`stock` = p.`stock` - ? WHERE p.`id` = ? AND p.`stock` >= ?"},
		{jpql: "update Product set quantity = 0L where id = :id",
			sql: "update `t_product` set `stock` = 0 where `id` = ?"},
		{jpql: "delete from Product p where p.shop.id = :s and p.status = com.x.Status.GONE",
			sql: "delete from `t_product` p where p.`shop_id` = ? and p.`status` = ?"},
		{jpql: "delete Product p where p.shop = :shop", sql: "delete `t_product` p where p.`shop_id` = ?"},
		{jpql: "update #{#entityName} p set p.status = 'x' where p.id in (select q.id from Product q where q.quantity = 0)",
			sql: "update `t_product` p set p.`status` = 'x' where p.`id` in (select q.`id` from `t_product` q where q.`stock` = 0)"},
		{jpql: "update Product p set p.status = :s where p.status like %:p%",
			sql: "update `t_product` p set p.`status` = ? where p.`status` like ?"},
		{jpql: "update Basket b set b.x = 1", why: "no @Entity named Basket"},
		{jpql: "update Product p set p.status = 'x' where size(p.tags) = 0", why: "JPQL SIZE"},
		{jpql: "update Product p set p.status = 'x' where p.tags is empty", why: "JPQL path p.tags through a to-many association"},
		{jpql: "update Product p set p.nope = 1", why: "Product has no persistent field nope"},
		{jpql: "update versioned Product p set p.status = 'x'", why: "JPQL VERSIONED"},
		{jpql: "select p from Product p", why: "JPQL SELECT is not an UPDATE or DELETE"},
		{jpql: "update Product p set p.status = p.status || 'x'", why: "JPQL || (string concatenation)"},
		{jpql: "delete from Product p join p.tags t", why: "JPQL JOIN"},
	}
	for _, c := range cases {
		var text java.Text
		for i := 0; i < len(c.jpql); i++ {
			text = append(text, java.Char{B: c.jpql[i], Line: 3, Col: 10 + i})
		}
		q := &Query{Method: "m", Returns: "int", Modifying: true, Line: 2, Col: 5, EndLine: 3, JPQL: text}
		fr := Render(q, "R.java", &Repository{Interface: "shop.R", Entity: "shop.Product"}, testMapping)
		if c.why != "" {
			if !strings.Contains(fr.Unchecked, c.why) {
				t.Errorf("%s: unchecked %q, want it to say %q", c.jpql, fr.Unchecked, c.why)
			}
			continue
		}
		if fr.Unchecked != "" || fr.SQL != c.sql {
			t.Errorf("%s:\n got %q (%s)\nwant %q", c.jpql, fr.SQL, fr.Unchecked, c.sql)
		}
		if fr.Builder != stmt.BuilderJPQL || fr.Namespace != "shop.R" || fr.ID != "m" {
			t.Errorf("%s: fragment %+v", c.jpql, fr)
		}
		// The statement stands at the annotation.
		if line, col := fr.Pos(0); line != 2 || col != 5 {
			t.Errorf("%s: starts at %d:%d, want 2:5", c.jpql, line, col)
		}
	}
}

func FuzzRenderJPQL(f *testing.F) {
	for _, s := range []string{
		"update Product p set p.quantity = p.quantity - :n where p.id = :id and p.quantity >= :n",
		"delete from #{#entityName} p where p.shop.id = ?1 and p.status in (select q.status from Product q)",
		"update Product set quantity = 10L where status like %:s% or id = :#{#p.id}",
		"update Product p set p.status = 'it''s' where p.id = ?",
		"update", "delete from", "update Product p set", "'", "#{", ":", "?", "update Product p set p.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, jpql string) {
		var text java.Text
		for i := 0; i < len(jpql); i++ {
			text = append(text, java.Char{B: jpql[i], Line: 1, Col: 1 + i})
		}
		q := &Query{Method: "m", Modifying: true, Line: 1, Col: 1, EndLine: 1, JPQL: text}
		fr := Render(q, "R.java", &Repository{Interface: "R", Entity: "Product"}, testMapping)
		if fr.Unchecked == "" && len(fr.Segments) == 0 && fr.SQL != "" {
			t.Fatalf("%q: SQL without positions", jpql)
		}
	})
}
