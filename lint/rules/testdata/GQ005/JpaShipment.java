package shop.jpa.model;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.MappedSuperclass;
import javax.persistence.Table;

// A domain entity that moves its own state: each method checks the state
// it leaves, then sets the next one. No @Version, no @DynamicUpdate.
@Entity
@Table(name = "t_order")
public class JpaShipment extends JpaShipmentBase {
    private String orderNo;

    private Integer quantity;

    public void ship() {
        if (!"paid".equals(status)) {
            throw new IllegalStateException("not paid");
        }
        this.status = "shipped";
    }

    public void cancel() {
        switch (status) {
            case "pending":
            case "paid":
                this.status = "cancelled";
                break;
            default:
                throw new IllegalStateException("cannot cancel " + status);
        }
    }

    // Changes no state column.
    public void rename(String orderNo) {
        this.orderNo = orderNo;
    }
}

// The key, the state and a transition come from a mapped superclass.
@MappedSuperclass
abstract class JpaShipmentBase {
    @Id
    protected Long id;

    protected String status;

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public void archive() {
        if (status == null || status.equals("archived")) {
            throw new IllegalStateException("already archived");
        }
        status = "archived";
    }
}
