package shop.jpa.model;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.Table;

// An order's quantity next to its state, no @Version, no @DynamicUpdate:
// Hibernate's UPDATE sends both whichever one the code set.
@Entity
@Table(name = "t_order")
public class JpaOrderLine {
    @Id
    private Long id;

    private String status;

    private Integer quantity;

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
