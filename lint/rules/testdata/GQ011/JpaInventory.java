package shop.jpa.model;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.Table;

@Entity
@Table(name = "t_inventory")
public class JpaInventory {
    @Id
    private Long id;

    private Integer inventory;

    private String note;

    private Long version;
}
