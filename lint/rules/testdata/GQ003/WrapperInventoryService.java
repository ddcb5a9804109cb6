package shop.service;

import shop.mbg.InventoryMapper;
import shop.model.Inventory;
import shop.model.InventoryExample;

// A service that wraps the generated inventory mapper.
public class WrapperInventoryService {
    private InventoryMapper inventoryMapper;

    public Inventory findById(long id) {
        return inventoryMapper.selectByPrimaryKey(id);
    }

    public void updateById(Inventory inventory) {
        inventoryMapper.updateByPrimaryKeySelective(inventory);
    }

    // A compare-and-set: the Example compares the version the caller read.
    public int updateByVersion(Inventory inventory) {
        InventoryExample example = new InventoryExample();
        example.createCriteria().andIdEqualTo(inventory.getId()).andVersionEqualTo(inventory.getVersion());
        inventory.setVersion(inventory.getVersion() + 1);
        return inventoryMapper.updateByExampleSelective(inventory, example);
    }

    // Hand-written guarded SQL: no generated write, so no wrapper.
    public int reduceStock(long id, int n) {
        return inventoryMapper.deductInventory(id, n);
    }
}
