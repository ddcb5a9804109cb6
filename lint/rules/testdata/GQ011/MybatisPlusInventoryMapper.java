package shop.plus.mapper;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import shop.plus.model.MybatisPlusInventoryDO;

public interface MybatisPlusInventoryMapper extends BaseMapper<MybatisPlusInventoryDO> {

    // The guarded decrement refuses by changing no row; the count is dropped.
    default void deduct(Long id, int n) {
        update(null, new LambdaUpdateWrapper<MybatisPlusInventoryDO>() // want "GQ011 BaseMapper.update runs a guarded decrement of inventory but its int result is discarded: a write that matched no row returns 0 without an exception"
                .setSql("inventory = inventory - " + n + ", version = version + 1")
                .eq(MybatisPlusInventoryDO::getId, id).ge(MybatisPlusInventoryDO::getInventory, n));
    }

    // Safe twin: the count goes back to the caller.
    default int deductCounted(Long id, int n) {
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventoryDO>()
                .setSql("inventory = inventory - " + n + ", version = version + 1")
                .eq(MybatisPlusInventoryDO::getId, id).ge(MybatisPlusInventoryDO::getInventory, n));
    }
}
