package shop.jpa.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.DynamicUpdate;

// @DynamicUpdate: the UPDATE writes only the columns that changed.
@Entity
@DynamicUpdate
@Table(name = "t_order")
public class JpaDynamicOrderLine {
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
}
