package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

func TestJPAEntity(t *testing.T) {
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
	f := ExtractJava("SkuStock.java", []byte(src))
	if f.JPA == nil || len(f.JPA.Entities) != 1 {
		t.Fatalf("entities: %+v", f.JPA)
	}
	e := f.JPA.Entities[0]
	want := JPAEntity{
		Class: "SkuStock", Qualified: "shop.model.SkuStock", Name: "Sku", Table: "t_sku", Super: "shop.base.Audited", Line: 8,
		Fields: []JPAField{
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

func TestJPAMutations(t *testing.T) {
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
}
`
	f := ExtractJava("Stock.java", []byte(src))
	if f.JPA == nil || len(f.JPA.Entities) != 1 {
		t.Fatalf("entities: %+v", f.JPA)
	}
	want := []JPAMutation{
		{Method: "decrease", Field: "quantity", Relative: true, Text: "this.quantity -= quantity"},
		{Method: "restock", Field: "quantity", Relative: true, Text: "quantity = quantity + n"},
		{Method: "reset", Field: "quantity", Form: stmt.ValueOther, Text: "this.quantity = quantity"},
		{Method: "close", Field: "status", Form: stmt.ValueLiteral, Text: `status = "CLOSED"`},
	}
	if d := cmp.Diff(want, f.JPA.Entities[0].Mutations); d != "" {
		t.Errorf("mutations (-want +got):\n%s", d)
	}
}
