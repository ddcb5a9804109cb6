package shop.tk.model;

import javax.persistence.Column;
import javax.persistence.Id;
import javax.persistence.Table;
import tk.mybatis.mapper.annotation.Version;

// The version plugin adds `AND version = ?` to every ByPrimaryKey update.
@Table(name = "t_inventory")
public class TkVersionedStock {
    @Id
    private Long id;
    private Integer inventory;
    @Version
    private Long version;

    public Integer getInventory() { return inventory; }
    public void setInventory(Integer inventory) { this.inventory = inventory; }
}
