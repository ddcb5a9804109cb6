package shop.plus.mapper;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import shop.plus.model.TInventory;

public interface MybatisPlusInventoryMapper extends BaseMapper<TInventory> {

    // The SET text is the caller's.
    default void adjust(Long id, String sql) {
        update(null, new LambdaUpdateWrapper<TInventory>().setSql(sql).eq(TInventory::getId, id)); // want "^GQ009 not checked: MyBatis-Plus wrapper chain not followed: setSql\\(sql\\) is built at run time$"
    }

    // A wrapper method guard does not follow.
    default void adjustFunc(Long id, int delta) {
        update(null, new LambdaUpdateWrapper<TInventory>().setSql("inventory = inventory - " + delta) // want "^GQ009 not checked: MyBatis-Plus wrapper chain not followed: wrapper method func\\(…\\) at line 17 is not followed$"
                .func(w -> w.eq(TInventory::getId, id)));
    }

    // The wrapper is handed to a method that may add anything to it.
    default void adjustShared(Long id, int delta) {
        LambdaUpdateWrapper<TInventory> w = new LambdaUpdateWrapper<TInventory>().setSql("inventory = inventory - " + delta);
        restrict(w, id);
        update(null, w); // want "^GQ009 not checked: MyBatis-Plus wrapper chain not followed: the wrapper w is passed on at line 23$"
    }

    // Silent: rendered and checked (the statement rules judge it).
    default int adjustGuarded(Long id, int delta) {
        return update(null, new LambdaUpdateWrapper<TInventory>().setSql("inventory = inventory - " + delta)
                .eq(TInventory::getId, id).ge(TInventory::getInventory, delta));
    }

    void restrict(LambdaUpdateWrapper<TInventory> w, Long id);
}
