package shop.tk.model;

import javax.persistence.Id;
import javax.persistence.Table;

// No @Column: tk.mybatis maps orderNo to order_no by its default style.
@Table(name = "t_order")
public class TkOrder {
    @Id
    private Long id;
    private String orderNo;
    private String status;

    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
}
