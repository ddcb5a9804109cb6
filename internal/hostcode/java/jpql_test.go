package java

import (
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/stmt"
)

// testMapping is an entity Product on t_product with a to-one shop.
func testMapping(entity string) (*JPAMapping, string) {
	if entity != "Product" && entity != "shop.Product" {
		return nil, "no @Entity named " + entity
	}
	return &JPAMapping{
		Entity: &JPAEntity{Name: "Product", Class: "Product"}, Table: "t_product",
		Fields: map[string]JPAMappedField{
			"id":       {JPAField: JPAField{Name: "id", ID: true}, Column: "id"},
			"quantity": {JPAField: JPAField{Name: "quantity"}, Column: "stock"},
			"status":   {JPAField: JPAField{Name: "status"}, Column: "status"},
			"shop":     {JPAField: JPAField{Name: "shop", Relation: true}, Column: "shop_id", TargetID: "id"},
			"tags":     {JPAField: JPAField{Name: "tags", Relation: true, ToMany: true}},
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
		var text javaText
		for i := 0; i < len(c.jpql); i++ {
			text = append(text, javaChar{b: c.jpql[i], line: 3, col: 10 + i})
		}
		q := &JPAQuery{Method: "m", Returns: "int", Modifying: true, Line: 2, Col: 5, EndLine: 3, text: text}
		fr := q.Fragment("R.java", &JPARepository{Interface: "shop.R", Entity: "shop.Product"}, testMapping)
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

func TestSpringNative(t *testing.T) {
	in := "select * from {h-schema}T t where t.a like %?1% and t.b like :b% and t.c = '%?x%'"
	var text javaText
	for i := 0; i < len(in); i++ {
		text = append(text, javaChar{b: in[i], line: 1, col: 1 + i})
	}
	if got, want := springNative(text).String(), "select * from T t where t.a like ?1 and t.b like :b and t.c = '%?x%'"; got != want {
		t.Errorf("springNative:\n got %q\nwant %q", got, want)
	}
	// A collection bound after a bare IN is the list Spring Data expands.
	for in, want := range map[string]string{
		"select * from m where m.role_id IN ?1 and type != ?2": "select * from m where m.role_id IN (?1) and type != ?2",
		"delete from m where id in :ids":                       "delete from m where id in (:ids)",
		"select * from m where id in (?1) and pin = ?2":        "select * from m where id in (?1) and pin = ?2",
		"select * from m where login = ?1 and 'in ?' = x":      "select * from m where login = ?1 and 'in ?' = x",
	} {
		var text javaText
		for i := 0; i < len(in); i++ {
			text = append(text, javaChar{b: in[i], line: 1, col: 1 + i})
		}
		if got := springNative(text).String(); got != want {
			t.Errorf("springNative(%q):\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestJPARepository(t *testing.T) {
	src := `package shop.repo;

import org.springframework.data.jpa.repository.*;
import org.springframework.data.repository.query.Param;
import shop.model.Product;

public interface ProductRepository extends JpaRepository<Product, Long> {
    @Modifying
    @Query("update Product p set p.quantity = p.quantity - :n where p.id = :id")
    int deduct(@Param("id") Long id, @Param("n") int n);

    @Modifying
    @Query(value = "update t_product set stock = 0 where id = ?1", nativeQuery = true)
    void clear(Long id);

    @Query("select p from Product p")
    java.util.List<Product> all();

    @Lock(LockModeType.PESSIMISTIC_WRITE)
    Product findLockedById(Long id);
}
`
	f := ExtractJava("ProductRepository.java", []byte(src))
	if f.JPA == nil || len(f.JPA.Repositories) != 1 {
		t.Fatalf("repositories: %+v", f.JPA)
	}
	r := f.JPA.Repositories[0]
	if r.Interface != "shop.repo.ProductRepository" || r.Entity != "shop.model.Product" || len(r.Locked) != 1 || r.Locked[0] != "findLockedById" {
		t.Errorf("repository %+v", r)
	}
	if len(r.Queries) != 1 || r.Queries[0].Method != "deduct" || r.Queries[0].Returns != "int" || !r.Queries[0].Modifying || r.Queries[0].Line != 9 {
		t.Errorf("queries %+v", r.Queries)
	}
	if len(f.Fragments) != 1 {
		t.Fatalf("fragments %+v", f.Fragments)
	}
	fr := f.Fragments[0]
	if fr.SQL != "update t_product set stock = 0 where id = ?1" || fr.Namespace != r.Interface || fr.ID != "clear" || fr.Exec == nil || !fr.Exec.ResultDiscarded {
		t.Errorf("native fragment %+v", fr)
	}
}

func TestJPACalls(t *testing.T) {
	src := `package shop.service;

import shop.repo.ProductRepository;

public class ProductService {
    private ProductRepository productRepository;

    void buy(Long id, int n) {
        Product p = productRepository.findById(id).orElseThrow();
        p.setQuantity(p.getQuantity() - n);
        productRepository.save(p);
        productRepository.deduct(id, n);
        if (productRepository.deduct(id, n) != 1) {
            throw new IllegalStateException();
        }
        int k = productRepository.deduct(id, n);
        var list = productRepository.findByName("x");
    }
}
`
	f := ExtractJava("ProductService.java", []byte(src))
	if len(f.MapperCalls) != 2 {
		t.Fatalf("calls %+v", f.MapperCalls)
	}
	save, dropped := f.MapperCalls[0], f.MapperCalls[1]
	if save.Framework != stmt.FrameworkJPA || save.Mapper != "shop.repo.ProductRepository" || save.Method != "save" ||
		save.RecordRead == nil || save.RecordRead.Method != "findById" || len(save.Sets) != 1 || save.Sets[0].Form != stmt.ValueFromRead {
		t.Errorf("save %+v", save)
	}
	if dropped.Framework != stmt.FrameworkSpringData || dropped.Method != "deduct" || !dropped.ResultDiscarded || dropped.Line != 12 {
		t.Errorf("dropped %+v", dropped)
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
		var text javaText
		for i := 0; i < len(jpql); i++ {
			text = append(text, javaChar{b: jpql[i], line: 1, col: 1 + i})
		}
		q := &JPAQuery{Method: "m", Modifying: true, Line: 1, Col: 1, EndLine: 1, text: text}
		fr := q.Fragment("R.java", &JPARepository{Interface: "R", Entity: "Product"}, testMapping)
		if fr.Unchecked == "" && len(fr.Segments) == 0 && fr.SQL != "" {
			t.Fatalf("%q: SQL without positions", jpql)
		}
	})
}
