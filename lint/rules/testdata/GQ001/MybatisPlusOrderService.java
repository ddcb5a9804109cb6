package shop.plus.service;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.core.conditions.update.UpdateWrapper;
import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
import shop.plus.mapper.MybatisPlusOrderMapper;
import shop.plus.model.MybatisPlusOrder;

public class MybatisPlusOrderService extends ServiceImpl<MybatisPlusOrderMapper, MybatisPlusOrder> {

    // The chain sets a column and names no row: every order is expired.
    public boolean expireAll() {
        return update(new LambdaUpdateWrapper<MybatisPlusOrder>().set(MybatisPlusOrder::getStatus, "expired")); // want "GQ001 UPDATE has no WHERE: it writes every row of t_order"
    }

    // Safe twin: the row is named.
    public boolean expire(String orderNo) {
        return update(new LambdaUpdateWrapper<MybatisPlusOrder>().set(MybatisPlusOrder::getStatus, "expired")
                .eq(MybatisPlusOrder::getOrderNo, orderNo).eq(MybatisPlusOrder::getStatus, "pending"));
    }

    // Silent: the only predicate may be absent, so the WHERE is not surely empty either.
    public boolean expireMaybe(String orderNo) {
        return update(new UpdateWrapper<MybatisPlusOrder>().set("status", "expired").eq(orderNo != null, "order_no", orderNo));
    }

    // A lambdaUpdate() chain of the service with no predicate.
    public boolean noteAll(String note) {
        return lambdaUpdate().set(MybatisPlusOrder::getStatus, note).update(); // want "GQ001 UPDATE has no WHERE"
    }
}
