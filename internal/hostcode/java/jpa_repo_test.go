package java

import (
	"testing"
)

func TestSpringNative(t *testing.T) {
	in := "select * from {h-schema}T t where t.a like %?1% and t.b like :b% and t.c = '%?x%'"
	var text Text
	for i := 0; i < len(in); i++ {
		text = append(text, Char{B: in[i], Line: 1, Col: 1 + i})
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
		var text Text
		for i := 0; i < len(in); i++ {
			text = append(text, Char{B: in[i], Line: 1, Col: 1 + i})
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
