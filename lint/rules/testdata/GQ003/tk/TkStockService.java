package shop.tk.service;

import shop.tk.mapper.TkStockMapper;
import shop.tk.mapper.TkVersionedStockMapper;
import shop.tk.model.TkStock;
import shop.tk.model.TkVersionedStock;

public class TkStockService {
    private TkStockMapper stockMapper;
    private TkVersionedStockMapper versionedMapper;

    // Read, subtract in Java, write the absolute value back: tk.mybatis
    // sends UPDATE t_inventory SET product_id = ?, inventory = ? WHERE id = ?.
    public void deduct(long id, int n) {
        TkStock s = stockMapper.selectByPrimaryKey(id);
        s.setQty(s.getQty() - n);
        stockMapper.updateByPrimaryKeySelective(s); // want "GQ003 counter t_inventory.inventory is set to s.getQty.. - n, computed from s read by selectByPrimaryKey at line 15, and written by shop.tk.mapper.TkStockMapper.updateByPrimaryKeySelective \\(.*tk/TkStockMapper.java:6\\)"
    }

    // Safe twin: the entity's @Version makes the write a compare-and-set.
    public void deductVersioned(long id, int n) {
        TkVersionedStock s = versionedMapper.selectByPrimaryKey(id);
        s.setInventory(s.getInventory() - n);
        versionedMapper.updateByPrimaryKeySelective(s);
    }

    // The same through the fields, in a lambda: this.stockMapper is the field.
    public void deductEach(java.util.List<Long> ids, int n) {
        ids.forEach(id -> {
            TkStock s = this.stockMapper.selectByPrimaryKey(id);
            s.setQty(s.getQty() - n);
            this.stockMapper.updateByPrimaryKeySelective(s); // want "GQ003 counter t_inventory.inventory is set to s.getQty.. - n, computed from s read by selectByPrimaryKey at line 30"
        });
    }

    // Safe twin: the same loop over the versioned entity.
    public void deductEachVersioned(java.util.List<Long> ids, int n) {
        ids.forEach(id -> {
            TkVersionedStock s = this.versionedMapper.selectByPrimaryKey(id);
            s.setInventory(s.getInventory() - n);
            this.versionedMapper.updateByPrimaryKeySelective(s);
        });
    }

    // The value is the caller's, not computed from a read here, but the code
    // decrements the counter elsewhere: the form's count undoes those decrements.
    public void restock(long id, int total) {
        TkStock s = stockMapper.selectByPrimaryKey(id);
        s.setQty(total);
        stockMapper.updateByPrimaryKey(s); // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
    }
}
