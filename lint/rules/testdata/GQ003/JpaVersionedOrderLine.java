package shop.jpa.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

// The same entity with @Version: its UPDATE compares the version read.
@Entity
@Table(name = "t_order")
public class JpaVersionedOrderLine {
    @Id
    private Long id;

    private String status;

    private Integer quantity;

    @Version
    private Long version;

    public Integer getQuantity() {
        return quantity;
    }

    public void setQuantity(Integer quantity) {
        this.quantity = quantity;
    }

    public void take(int n) {
        if (quantity < n) {
            throw new IllegalStateException("insufficient");
        }
        quantity = quantity - n;
    }
}
