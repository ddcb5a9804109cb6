package jpa

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

func TestEntity(t *testing.T) {
	src := `package shop.model;

import javax.persistence.*;
import shop.base.Audited;

@Entity(name = "Sku")
@Table(name = "t_sku")
public class SkuStock extends Audited {
    private static final long serialVersionUID = 1L;
    @Id
    private Long id;
    @Column(name = "stock", nullable = false)
    private Integer quantity;
    private String status;
    @Version
    private Long version;
    @Transient
    private int cached;
    @ManyToOne
    @JoinColumn(name = "shop_id")
    private Shop shop;
    @OneToMany(mappedBy = "sku")
    private java.util.List<Line> lines;
    private transient int scratch;

    public Integer getQuantity() { return quantity; }

    @Column(name = "LOCK_STOCK")
    public int getLockStock() { return 0; }
}
`
	f := java.ExtractJava("SkuStock.java", []byte(src))
	d := Of(f)
	if d == nil || len(d.Entities) != 1 {
		t.Fatalf("entities: %+v", d)
	}
	e := d.Entities[0]
	want := Entity{
		Class: "SkuStock", Qualified: "shop.model.SkuStock", Name: "Sku", Table: "t_sku", Super: "shop.base.Audited", Line: 8,
		Fields: []Field{
			{Name: "id", Type: "Long", ID: true},
			{Name: "quantity", Type: "Integer", Column: "stock"},
			{Name: "status", Type: "String"},
			{Name: "version", Type: "Long", Version: true},
			{Name: "shop", Type: "Shop", Column: "shop_id", Relation: true},
			{Name: "lines", Type: "List", Relation: true, ToMany: true},
			{Name: "lockStock", Type: "int", Column: "LOCK_STOCK"},
		},
	}
	if d := cmp.Diff(want, e); d != "" {
		t.Errorf("entity (-want +got):\n%s", d)
	}
}

func TestMutations(t *testing.T) {
	src := `package shop.model;

import jakarta.persistence.*;

@Entity
public class Stock {
    @Id
    private Long id;
    private Long quantity;
    private String status;

    public Stock(Long quantity) {
        this.quantity = quantity;
    }

    public void decrease(Long quantity) {
        this.quantity -= quantity;
    }

    public void restock(long n) {
        quantity = quantity + n;
    }

    public void reset(Long quantity) {
        this.quantity = quantity;
    }

    public void close() {
        status = "CLOSED";
    }

    public void ship() {
        switch (status) {
        case "PAID":
            this.status = "SHIPPED";
            break;
        }
    }

    public void hold(String status) {
        if (status != null) {
            this.status = "HELD";
        }
    }
}

@Entity
@org.hibernate.annotations.DynamicUpdate
class Parcel extends Stock {
    private String label;

    public void pack() {
        if (!"PAID".equals(status)) {
            throw new IllegalStateException();
        }
        status = "PACKED";
        label = null;
    }
}
`
	f := java.ExtractJava("Stock.java", []byte(src))
	d := Of(f)
	if d == nil || len(d.Entities) != 2 {
		t.Fatalf("entities: %+v", d)
	}
	want := []Mutation{
		{Method: "decrease", Assignment: java.Assignment{Field: "quantity", Relative: true, Text: "this.quantity -= quantity"}},
		{Method: "restock", Assignment: java.Assignment{Field: "quantity", Relative: true, Text: "quantity = quantity + n"}},
		{Method: "reset", Assignment: java.Assignment{Field: "quantity", Form: stmt.ValueOther, Text: "this.quantity = quantity"}},
		{Method: "close", Assignment: java.Assignment{Field: "status", Form: stmt.ValueLiteral, Text: `status = "CLOSED"`}},
		// The switch reads the state it leaves; hold's condition reads a
		// parameter that shadows the field.
		{Method: "ship", Assignment: java.Assignment{Field: "status", Form: stmt.ValueLiteral, Checked: true, Text: `this.status = "SHIPPED"`}},
		{Method: "hold", Assignment: java.Assignment{Field: "status", Form: stmt.ValueLiteral, Text: `this.status = "HELD"`}},
	}
	if d := cmp.Diff(want, d.Entities[0].Mutations); d != "" {
		t.Errorf("mutations (-want +got):\n%s", d)
	}
	// A subclass assigns the field it inherits, and says @DynamicUpdate.
	want = []Mutation{
		{Method: "pack", Assignment: java.Assignment{Field: "status", Form: stmt.ValueLiteral, Checked: true, Text: `status = "PACKED"`}},
		{Method: "pack", Assignment: java.Assignment{Field: "label", Text: "label = null"}},
	}
	sub := d.Entities[1]
	if d := cmp.Diff(want, sub.Mutations); d != "" || !sub.DynamicUpdate {
		t.Errorf("subclass mutations (-want +got), DynamicUpdate %v:\n%s", sub.DynamicUpdate, d)
	}
}

func TestSpringNative(t *testing.T) {
	in := "select * from {h-schema}T t where t.a like %?1% and t.b like :b% and t.c = '%?x%'"
	var text java.Text
	for i := 0; i < len(in); i++ {
		text = append(text, java.Char{B: in[i], Line: 1, Col: 1 + i})
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
		var text java.Text
		for i := 0; i < len(in); i++ {
			text = append(text, java.Char{B: in[i], Line: 1, Col: 1 + i})
		}
		if got := springNative(text).String(); got != want {
			t.Errorf("springNative(%q):\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestRepository(t *testing.T) {
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
	f := java.ExtractJava("ProductRepository.java", []byte(src))
	d := Of(f)
	if d == nil || len(d.Repositories) != 1 {
		t.Fatalf("repositories: %+v", d)
	}
	r := d.Repositories[0]
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

// TestQueryConstants: a @Query that reads a constant of its file is one
// fragment, at the annotation (the constant is a piece of it, not SQL of
// its own); one that reads a constant of another file is none.
func TestQueryConstants(t *testing.T) {
	src := `package shop.repo;

import org.springframework.data.jpa.repository.*;

public interface StockRepository extends JpaRepository<Stock, Long> {
    String CLEAR = "UPDATE t_stock SET qty = 0 WHERE id = ?1";

    @Modifying
    @Query(value = CLEAR, nativeQuery = true)
    int clear(Long id);

    @Query(value = "SELECT * FROM t_stock WHERE " + Where.ACTIVE, nativeQuery = true)
    List<Stock> active();
}
`
	f := java.ExtractJava("StockRepository.java", []byte(src))
	if len(f.Fragments) != 1 {
		t.Fatalf("fragments %+v", f.Fragments)
	}
	fr := f.Fragments[0]
	if fr.Line != 9 || fr.ID != "clear" || fr.SQL != "UPDATE t_stock SET qty = 0 WHERE id = ?1" || fr.Namespace != "shop.repo.StockRepository" || fr.Exec != nil {
		t.Errorf("fragment %+v", fr)
	}
}
