package shop.plus.service;

import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
import shop.plus.mapper.MybatisPlusInventoryMapper;
import shop.plus.model.MybatisPlusInventory;

// IService's update() chain names its columns by string, as UpdateWrapper does.
public class MybatisPlusInventoryService extends ServiceImpl<MybatisPlusInventoryMapper, MybatisPlusInventory> {

    public boolean deduct(Long id, int n) {
        return update().setSql("inventory = inventory - " + n + ", version = version + 1").eq("id", id).update(); // want "GQ002 decrement of counter t_inventory.inventory .*MyBatis-Plus update\\(\\) chain"
    }

    // Safe twin: the chain bounds the decrement.
    public boolean deductGuarded(Long id, int n) {
        return update().setSql("inventory = inventory - " + n + ", version = version + 1").eq("id", id).ge("inventory", n).update();
    }
}
