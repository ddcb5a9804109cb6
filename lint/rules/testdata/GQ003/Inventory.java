package shop.model;

// MyBatis Generator's model of t_inventory.
public class Inventory {
    private Long id;
    private Long productId;
    private Integer inventory;
    private String note;

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public Long getProductId() { return productId; }
    public void setProductId(Long productId) { this.productId = productId; }
    public Integer getInventory() { return inventory; }
    public void setInventory(Integer inventory) { this.inventory = inventory; }
    public String getNote() { return note; }
    public void setNote(String note) { this.note = note; }
}
