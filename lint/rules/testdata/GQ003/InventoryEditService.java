package shop.service;

import org.springframework.beans.BeanUtils;
import shop.dto.InventoryNoteParam;
import shop.dto.InventoryParam;
import shop.mbg.InventoryMapper;
import shop.model.Inventory;

public class InventoryEditService {
    private InventoryMapper inventoryMapper;

    // The form's inventory, inherited from the model, is copied over the
    // orders' decrements.
    public void edit(Long id, InventoryParam param) {
        Inventory inv = new Inventory();
        BeanUtils.copyProperties(param, inv);
        inv.setId(id);
        inventoryMapper.updateByPrimaryKeySelective(inv); // want "GQ003 counter t_inventory.inventory is set to param.getInventory.. .copied by BeanUtils.copyProperties at line 16., a value the caller supplies"
    }

    // Safe twin: a form without the count.
    public void note(InventoryNoteParam param) {
        Inventory inv = new Inventory();
        BeanUtils.copyProperties(param, inv);
        inventoryMapper.updateByPrimaryKeySelective(inv);
    }
}
