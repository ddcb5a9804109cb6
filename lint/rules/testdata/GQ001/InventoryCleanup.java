package shop.service;

import shop.mbg.InventoryMapper;
import shop.model.Inventory;
import shop.model.InventoryExample;

public class InventoryCleanup {
    private InventoryMapper inventoryMapper;

    // An Example given no criteria renders no WHERE.
    public void clearAll() {
        InventoryExample example = new InventoryExample();
        example.setOrderByClause("id");
        inventoryMapper.deleteByExample(example); // want "GQ001 DELETE through shop.mbg.InventoryMapper.deleteByExample .*with an Example given no criteria has no WHERE: it writes every row of t_inventory"
    }

    public void resetNotes() {
        Inventory record = new Inventory();
        record.setNote("");
        InventoryExample example = new InventoryExample();
        example.createCriteria();
        inventoryMapper.updateByExampleSelective(record, example); // want "GQ001 UPDATE through shop.mbg.InventoryMapper.updateByExampleSelective"
    }

    // Safe twin: the criteria name the rows.
    public void clearProduct(long productId) {
        InventoryExample example = new InventoryExample();
        example.createCriteria().andProductIdEqualTo(productId);
        inventoryMapper.deleteByExample(example);
    }

    // Silent: another method fills the Example.
    public void clearMatching(String note) {
        InventoryExample example = new InventoryExample();
        addFilters(example, note);
        inventoryMapper.deleteByExample(example);
    }

    private void addFilters(InventoryExample example, String note) {
        if (note != null) {
            example.createCriteria().andNoteEqualTo(note);
        }
    }
}
