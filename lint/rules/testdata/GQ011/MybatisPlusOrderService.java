package shop.plus.service;

import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
import shop.plus.mapper.MybatisPlusInventoryMapper;
import shop.plus.mapper.MybatisPlusOrderMapper;
import shop.plus.model.MybatisPlusInventoryDO;
import shop.plus.model.MybatisPlusOrderDO;

public class MybatisPlusOrderService extends ServiceImpl<MybatisPlusOrderMapper, MybatisPlusOrderDO> {
    private MybatisPlusInventoryMapper inventoryMapper;

    // The transition's boolean is dropped: a paid order stays "paid" unnoticed.
    public void pay(Long id) {
        lambdaUpdate().set(MybatisPlusOrderDO::getStatus, "paid").eq(MybatisPlusOrderDO::getId, id) // want "GQ011 IService.lambdaUpdate\\(\\).update runs a state transition of status but its boolean result is discarded"
                .eq(MybatisPlusOrderDO::getStatus, "new").update();
    }

    // Safe twin: the boolean is tested.
    public void payChecked(Long id) {
        if (!lambdaUpdate().set(MybatisPlusOrderDO::getStatus, "paid").eq(MybatisPlusOrderDO::getId, id)
                .eq(MybatisPlusOrderDO::getStatus, "new").update()) {
            throw new IllegalStateException("order " + id + " is not new");
        }
    }

    // The @Version CAS of the entity read: a lost race writes nothing, unnoticed.
    public void restock(Long id, int n) {
        MybatisPlusInventoryDO inv = inventoryMapper.selectById(id);
        inv.setInventory(inv.getInventory() + n);
        inventoryMapper.updateById(inv); // want "GQ011 shop.plus.mapper.MybatisPlusInventoryMapper.updateById is a version CAS on version through @Version \\(inv read by selectById at line 28\\) but its int result is discarded"
    }

    // Safe twin: the count is compared.
    public void restockChecked(Long id, int n) {
        MybatisPlusInventoryDO inv = inventoryMapper.selectById(id);
        inv.setInventory(inv.getInventory() + n);
        if (inventoryMapper.updateById(inv) != 1) {
            throw new IllegalStateException("inventory " + id + " changed meanwhile");
        }
    }
}
