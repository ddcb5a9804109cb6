package shop.tk.model;

import javax.persistence.Id;
import javax.persistence.Table;
import tk.mybatis.mapper.annotation.Version;

@Table(name = "t_order")
public class TkVersionedOrder {
    @Id
    private Long id;
    private String status;
    @Version
    private Long version;

    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
}
