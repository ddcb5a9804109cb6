package shop.tk.model;

import javax.persistence.Column;
import javax.persistence.Id;
import javax.persistence.Table;
import javax.persistence.Transient;

@Table(name = "t_inventory")
public class TkStock {
    @Id
    private Long id;
    @Column(name = "product_id")
    private Long productId;
    @Column(name = "inventory")
    private Integer qty;
    @Transient
    private String label;

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public Integer getQty() { return qty; }
    public void setQty(Integer qty) { this.qty = qty; }
}
