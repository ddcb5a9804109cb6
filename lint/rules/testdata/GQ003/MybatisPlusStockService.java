package shop.plus.service;

import shop.plus.mapper.MybatisPlusInventoryMapper;
import shop.plus.mapper.MybatisPlusReservedMapper;
import shop.plus.model.MybatisPlusInventoryDO;
import shop.plus.model.MybatisPlusReservedDO;

public class MybatisPlusStockService {
    private MybatisPlusInventoryMapper inventoryMapper;
    private MybatisPlusReservedMapper reservedMapper;

    // A new entity carries the value computed from the read, but not its
    // version: the interceptor has nothing to compare.
    public void deduct(Long id, int n) {
        MybatisPlusInventoryDO inv = inventoryMapper.selectById(id);
        inventoryMapper.updateById(new MybatisPlusInventoryDO().setId(id).setStock(inv.getStock() - n)); // want "GQ003 counter t_inventory.inventory is set to inv.getStock.. - n, computed from inv read by selectById at line 15, and written by shop.plus.mapper.MybatisPlusInventoryMapper.updateById"
    }

    // Safe twin: the entity read is written back; its @Version holds the version read.
    public int deductRead(Long id, int n) {
        MybatisPlusInventoryDO inv = inventoryMapper.selectById(id);
        inv.setStock(inv.getStock() - n);
        return inventoryMapper.updateById(inv);
    }

    // Safe twin: the new entity is given the version read.
    public int deductCopied(Long id, int n) {
        MybatisPlusInventoryDO inv = validateExists(id);
        return inventoryMapper.updateById(new MybatisPlusInventoryDO().setId(id)
                .setStock(inv.getStock() - n).setVersion(inv.getVersion()));
    }

    // The version comes from a form, not from the read the value came from.
    public void deductForm(MybatisPlusInventoryDO form, int n) {
        MybatisPlusInventoryDO inv = validateExists(form.getId());
        MybatisPlusInventoryDO upd = new MybatisPlusInventoryDO();
        upd.setId(form.getId());
        upd.setVersion(form.getVersion());
        upd.setStock(inv.getStock() - n);
        inventoryMapper.updateById(upd); // want "GQ003 counter t_inventory.inventory .*computed from inv read by validateExists at line 35"
    }

    // The entity class has no @Version: even the entity read is written blind.
    public void reserve(Long id, int n) {
        MybatisPlusReservedDO row = reservedMapper.selectById(id);
        row.setInventory(row.getInventory() + n);
        reservedMapper.updateById(row); // want "GQ003 counter t_inventory.inventory is set to row.getInventory.. \\+ n"
    }

    // The value is the caller's, not computed from a read here, but the code
    // decrements the counter elsewhere: the form's count undoes those decrements.
    public void restock(Long id, int total) {
        inventoryMapper.updateById(new MybatisPlusInventoryDO().setId(id).setStock(total)); // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
    }

    private MybatisPlusInventoryDO validateExists(Long id) {
        MybatisPlusInventoryDO inv = inventoryMapper.selectById(id);
        if (inv == null) {
            throw new IllegalArgumentException("no inventory " + id);
        }
        return inv;
    }
}
