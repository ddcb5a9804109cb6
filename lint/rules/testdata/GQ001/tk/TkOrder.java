package shop.tk.model;

import javax.persistence.Id;
import javax.persistence.Table;

@Table(name = "t_order")
public class TkOrder {
    @Id
    private Long id;
    private String status;

    public void setStatus(String status) { this.status = status; }
}
