package shop.jpa.model;

import javax.persistence.Column;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.Table;

@Entity
@Table(name = "t_inventory")
public class JpaInventory {
    @Id
    private Long id;

    @Column(name = "inventory")
    private Integer quantity;

    public Integer getQuantity() {
        return quantity;
    }

    public void setQuantity(Integer quantity) {
        this.quantity = quantity;
    }

    // A domain method: the caller's save writes what it computed.
    public void decrease(int n) {
        if (quantity < n) {
            throw new IllegalStateException("insufficient");
        }
        this.quantity -= n;
    }

    // Not relative: a parameter of the field's name shadows it.
    public void recount(Integer quantity) {
        quantity = quantity + 0;
    }
}
