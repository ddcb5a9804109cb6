package shop.jpa.model;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.MappedSuperclass;
import javax.persistence.Table;

@Entity
@Table(name = "t_order")
public class JpaOrder extends JpaBase {
    private String orderNo;

    private String status;

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }
}

// The key comes from a mapped superclass.
@MappedSuperclass
abstract class JpaBase {
    @Id
    private Long id;
}
