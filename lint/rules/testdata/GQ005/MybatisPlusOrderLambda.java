package shop.plus.service;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.core.conditions.update.UpdateWrapper;
import shop.plus.mapper.MybatisPlusOrderMapper;
import shop.plus.model.MybatisPlusOrderDO;

public class MybatisPlusOrderLambda {
    private MybatisPlusOrderMapper orderMapper;

    // UpdateWrapper.lambda() switches to method references; the chain is the
    // same and is followed.
    public void ship(Long id) {
        orderMapper.update(new MybatisPlusOrderDO().setStatus("shipped"), // want "GQ005 state column t_order.status is set to \\? without a predicate on status"
                new UpdateWrapper<MybatisPlusOrderDO>().lambda().eq(MybatisPlusOrderDO::getId, id));
    }

    // Safe twin: the state left is in the WHERE.
    public int shipPaid(Long id) {
        LambdaUpdateWrapper<MybatisPlusOrderDO> w = new UpdateWrapper<MybatisPlusOrderDO>().lambda();
        w.set(MybatisPlusOrderDO::getStatus, "shipped");
        w.eq(MybatisPlusOrderDO::getId, id);
        w.eq(MybatisPlusOrderDO::getStatus, "paid");
        return orderMapper.update(null, w);
    }
}
