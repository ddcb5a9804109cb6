package shop.service;

import shop.mbg.InventoryMapper;
import shop.model.Inventory;
import shop.model.InventoryExample;

public class InventoryService {
    private InventoryMapper inventoryMapper;

    // Read, subtract in Java, write the absolute value back by primary key.
    public void deduct(long id, int n) {
        Inventory inv = inventoryMapper.selectByPrimaryKey(id);
        inv.setInventory(inv.getInventory() - n);
        inventoryMapper.updateByPrimaryKeySelective(inv); // want "GQ003 counter t_inventory.inventory is set to inv.getInventory.. - n, computed from inv read by selectByPrimaryKey at line 12, and written by shop.mbg.InventoryMapper.updateByPrimaryKeySelective"
    }

    // A fresh record carries the value computed from the row read first.
    public void deductFromList(long productId, int n) {
        InventoryExample byProduct = new InventoryExample();
        byProduct.createCriteria().andProductIdEqualTo(productId);
        java.util.List<Inventory> rows = inventoryMapper.selectByExample(byProduct);
        Inventory row = rows.get(0);
        Inventory upd = new Inventory();
        upd.setId(row.getId());
        upd.setInventory(row.getInventory() - n);
        InventoryExample byId = new InventoryExample();
        byId.createCriteria().andIdEqualTo(row.getId());
        inventoryMapper.updateByExampleSelective(upd, byId); // want "GQ003 counter t_inventory.inventory .*computed from row read by selectByExample at line 22"
    }

    // Safe twin: the Example compares the version read with the value.
    public void deductByVersion(long id, int n) {
        Inventory inv = inventoryMapper.selectByPrimaryKey(id);
        Inventory upd = new Inventory();
        upd.setInventory(inv.getInventory() - n);
        upd.setVersion(inv.getVersion() + 1);
        InventoryExample cas = new InventoryExample();
        cas.createCriteria().andIdEqualTo(id).andVersionEqualTo(inv.getVersion());
        inventoryMapper.updateByExampleSelective(upd, cas);
    }

    // Safe twin: the database computes the value in a guarded custom statement.
    public void deductGuarded(long id, int n) {
        Inventory inv = inventoryMapper.selectByPrimaryKey(id);
        if (inv.getInventory() < n) {
            throw new IllegalStateException("insufficient");
        }
        inventoryMapper.deductInventory(id, n);
    }

    // The value is the caller's, not computed from a read here, but the code
    // decrements the counter elsewhere: the form's count undoes those decrements.
    public void restock(long id, int total) {
        Inventory inv = inventoryMapper.selectByPrimaryKey(id);
        inv.setInventory(total);
        inventoryMapper.updateByPrimaryKeySelective(inv); // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
    }

    // Silent: the Example comes from elsewhere; guard cannot see its criteria.
    public void deductWith(InventoryExample where, Inventory inv, int n) {
        Inventory cur = inventoryMapper.selectByPrimaryKey(inv.getId());
        inv.setInventory(cur.getInventory() - n);
        inventoryMapper.updateByExampleSelective(inv, where);
    }

    // Silent: the counter read is written back unchanged (a form keeping it).
    public void editNote(Inventory form) {
        Inventory old = inventoryMapper.selectByPrimaryKey(form.getId());
        form.setInventory(old.getInventory());
        inventoryMapper.updateByPrimaryKeySelective(form);
    }
}
