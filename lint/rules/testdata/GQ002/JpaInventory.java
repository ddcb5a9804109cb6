package shop.jpa.model;

import javax.persistence.Column;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.Table;

// The entity's field names differ from the columns: JPQL names the fields.
@Entity
@Table(name = "t_inventory")
public class JpaInventory {
    @Id
    private Long id;

    private Long productId;

    @Column(name = "inventory", nullable = false)
    private Integer quantity;

    public Integer getQuantity() {
        return quantity;
    }
}
