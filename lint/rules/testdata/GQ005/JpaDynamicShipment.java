package shop.jpa.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.DynamicUpdate;

// @DynamicUpdate: the UPDATE writes only the columns that changed, so it
// rewrites no column the code did not set.
@Entity
@DynamicUpdate
@Table(name = "t_order")
public class JpaDynamicShipment {
    @Id
    private Long id;

    private String status;

    private Integer quantity;

    public void setStatus(String status) {
        this.status = status;
    }
}
