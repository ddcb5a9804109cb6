package shop.plus.mapper;

import cn.hutool.core.util.StrUtil;
import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.core.conditions.update.UpdateWrapper;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.core.toolkit.Wrappers;
import shop.plus.model.MybatisPlusInventory;

public interface MybatisPlusInventoryMapper extends BaseMapper<MybatisPlusInventory> {

    // The decrement is concatenated into setSql; nothing in the chain bounds it.
    default int deduct(Long id, int n) {
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventory>() // want "GQ002 decrement of counter t_inventory.inventory by \\? has no WHERE conjunct implying inventory >= \\?: .*\\(SQL rendered by guard from the MyBatis-Plus LambdaUpdateWrapper chain\\)"
                .setSql("inventory = inventory - " + n + ", version = version + 1")
                .eq(MybatisPlusInventory::getId, id));
    }

    // Safe twin: ge on the property mapped to the counter guards it.
    default int deductGuarded(Long id, int n) {
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventory>()
                .setSql("inventory = inventory - " + n + ", version = version + 1")
                .eq(MybatisPlusInventory::getId, id)
                .ge(MybatisPlusInventory::getStock, n));
    }

    // Safe twin: apply's fragment, with {0} bound, is the guard.
    default int deductApplied(Long id, int n) {
        LambdaUpdateWrapper<MybatisPlusInventory> w = new LambdaUpdateWrapper<MybatisPlusInventory>()
                .setSql("inventory = inventory - {0}, version = version + 1", n)
                .eq(MybatisPlusInventory::getId, id);
        w.apply("inventory >= {0}", n);
        return update(null, w);
    }

    // The guard is added only when the caller asks for it: a guard that may
    // be absent guards nothing.
    default int deductChecked(Long id, int n, boolean check) {
        LambdaUpdateWrapper<MybatisPlusInventory> w = new LambdaUpdateWrapper<>();
        w.eq(MybatisPlusInventory::getId, id).ge(check, MybatisPlusInventory::getStock, n);
        w.setSql("inventory = inventory - " + n + ", version = version + 1");
        return update(null, w); // want "GQ002 decrement of counter t_inventory.inventory"
    }

    // The same guard inside an if block is as absent.
    default int deductIf(Long id, int n, boolean check) {
        LambdaUpdateWrapper<MybatisPlusInventory> w = new LambdaUpdateWrapper<>();
        w.eq(MybatisPlusInventory::getId, id);
        if (check) {
            w.ge(MybatisPlusInventory::getStock, n);
        }
        w.setSql("inventory = inventory - " + n + ", version = version + 1");
        return update(null, w); // want "GQ002 decrement of counter t_inventory.inventory"
    }

    // The SET text is chosen by branch: the decrement's variant has no guard.
    default int adjust(Long id, int delta) {
        String sql;
        if (delta > 0) {
            sql = "inventory = inventory + " + delta + ", version = version + 1";
        } else {
            sql = "inventory = inventory - " + -delta + ", version = version + 1";
        }
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventory>().setSql(sql).eq(MybatisPlusInventory::getId, id)); // want "GQ002 decrement of counter t_inventory.inventory"
    }

    // Safe twin: the guard holds in both variants.
    default int adjustGuarded(Long id, int delta) {
        String sql = "inventory = inventory - " + delta + ", version = version + 1";
        if (delta < 0) {
            sql = "inventory = inventory + " + -delta + ", version = version + 1";
        }
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventory>().setSql(sql)
                .eq(MybatisPlusInventory::getId, id).ge(MybatisPlusInventory::getStock, delta));
    }

    // setDecrBy is the same decrement, by method.
    default int deductBy(Long id, int n) {
        return update(Wrappers.<MybatisPlusInventory>lambdaUpdate().setDecrBy(MybatisPlusInventory::getStock, n) // want "GQ002 decrement of counter t_inventory.inventory"
                .setSql("version = version + 1").eq(MybatisPlusInventory::getId, id));
    }

    // Safe twin: the guard holds in either branch of the OR group.
    default int deductByGuarded(Long id, int n) {
        return update(Wrappers.<MybatisPlusInventory>lambdaUpdate().setDecrBy(MybatisPlusInventory::getStock, n)
                .setSql("version = version + 1").eq(MybatisPlusInventory::getId, id)
                .and(i -> i.ge(MybatisPlusInventory::getStock, n)));
    }

    // A decrement formatted with Hutool's StrUtil.format: its template is the
    // SQL, each {} a bound value; nothing bounds it.
    default int deductFormatted(Long id, int n) {
        UpdateWrapper<MybatisPlusInventory> w = new UpdateWrapper<>();
        w.setSql(StrUtil.format("inventory = inventory - {}", n));
        w.setSql("version = version + 1");
        w.eq("id", id);
        return update(null, w); // want "GQ002 decrement of counter t_inventory.inventory"
    }

    // Safe twin: the guard appended by last(), formatted the same way.
    default int deductFormattedGuarded(Long id, int n) {
        UpdateWrapper<MybatisPlusInventory> w = new UpdateWrapper<>();
        w.setSql(StrUtil.format("inventory = inventory - {}", n));
        w.setSql("version = version + 1");
        w.eq("id", id);
        w.last(StrUtil.format(" and (inventory - {} >= 0)", n));
        return update(null, w);
    }

    // Safe twin: a constant bound stays one: stock > 0 guards a decrement of 1.
    default int releaseOne(Long id) {
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventory>()
                .eq(MybatisPlusInventory::getId, id)
                .gt(MybatisPlusInventory::getStock, 0L)
                .setSql("inventory = inventory - 1, version = version + 1"));
    }

    // ... and not one of 2.
    default int releaseTwo(Long id) {
        return update(null, new LambdaUpdateWrapper<MybatisPlusInventory>() // want "GQ002 .*guards a decrement of 1 only"
                .eq(MybatisPlusInventory::getId, id)
                .gt(MybatisPlusInventory::getStock, 0)
                .setSql("inventory = inventory - 2, version = version + 1"));
    }
}
