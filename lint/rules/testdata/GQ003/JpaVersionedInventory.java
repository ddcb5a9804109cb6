package shop.jpa.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

// The same table through an entity with @Version: JPA's UPDATE compares it.
@Entity
@Table(name = "t_inventory")
public class JpaVersionedInventory {
    @Id
    private Long id;

    private Integer inventory;

    @Version
    private Long version;

    public Integer getInventory() {
        return inventory;
    }

    public void setInventory(Integer inventory) {
        this.inventory = inventory;
    }
}
