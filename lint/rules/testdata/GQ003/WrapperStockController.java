package shop.web;

import shop.model.Inventory;
import shop.service.WrapperInventoryService;

public class WrapperStockController {
    @Autowired
    private WrapperInventoryService inventoryService;

    // Read through the service, subtract in Java, write back through it.
    public void sell(long id, int n) {
        Inventory inv = inventoryService.findById(id);
        inv.setInventory(inv.getInventory() - n);
        inventoryService.updateById(inv); // want "GQ003 counter t_inventory.inventory is set to inv.getInventory.. - n, computed from inv read by inventoryService.findById → InventoryMapper.selectByPrimaryKey at line 12, and written by inventoryService.updateById → shop.mbg.InventoryMapper.updateByPrimaryKeySelective \\(.*GeneratedInventoryMapper.xml:44\\)"
    }

    // Safe twin: the wrapper compares the version read.
    public void sellByVersion(long id, int n) {
        Inventory inv = inventoryService.findById(id);
        inv.setInventory(inv.getInventory() - n);
        if (inventoryService.updateByVersion(inv) == 0) {
            throw new IllegalStateException("changed meanwhile");
        }
    }

    // Safe twin: the database subtracts under its own guard.
    public void sellGuarded(long id, int n) {
        if (inventoryService.reduceStock(id, n) == 0) {
            throw new IllegalStateException("insufficient");
        }
    }

    // The value is the caller's, not computed from the read, but the code
    // decrements the counter elsewhere: the form's count undoes those decrements.
    public void restock(long id, int total) {
        Inventory inv = inventoryService.findById(id);
        inv.setInventory(total);
        inventoryService.updateById(inv); // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
    }
}
