package shop.jpa.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

// The same transitions on an entity with @Version: the flush's UPDATE
// compares the version read, so the second of two transactions fails.
@Entity
@Table(name = "t_order")
public class JpaVersionedShipment {
    @Id
    private Long id;

    private String status;

    @Version
    private Long version;

    public void ship() {
        if (!"paid".equals(status)) {
            throw new IllegalStateException("not paid");
        }
        this.status = "shipped";
    }

    public void setStatus(String status) {
        this.status = status;
    }
}
