package shop.plus.service;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
import shop.plus.mapper.MybatisPlusOrderMapper;
import shop.plus.model.MybatisPlusOrderDO;
import shop.plus.model.CommonStatusEnum;

public class MybatisPlusOrderService extends ServiceImpl<MybatisPlusOrderMapper, MybatisPlusOrderDO> {
    private MybatisPlusOrderMapper orderMapper;

    // Check, then act: the state checked is not the state the write requires.
    public void pay(Long id) {
        MybatisPlusOrderDO order = validatePending(id);
        orderMapper.updateById(new MybatisPlusOrderDO().setId(id).setStatus("paid")); // want "GQ005 state column t_order.status is set to \"paid\" and written by shop.plus.mapper.MybatisPlusOrderMapper.updateById after order read by validatePending at line 14"
    }

    // The entity read is changed and written back through the service.
    public void cancel(Long id) {
        MybatisPlusOrderDO order = getById(id);
        if (!"pending".equals(order.getStatus())) {
            throw new IllegalStateException("not pending");
        }
        order.setStatus("cancelled");
        this.updateById(order); // want "GQ005 state column t_order.status .*after order read by getById at line 20"
    }

    // Safe twin: the transition names the state it leaves.
    public boolean payGuarded(Long id) {
        return update(new LambdaUpdateWrapper<MybatisPlusOrderDO>().set(MybatisPlusOrderDO::getStatus, "paid")
                .eq(MybatisPlusOrderDO::getId, id).eq(MybatisPlusOrderDO::getStatus, "pending"));
    }

    // The chain sets the state and names the row only.
    public boolean ship(Long id) {
        return lambdaUpdate().set(MybatisPlusOrderDO::getStatus, "shipped").eq(MybatisPlusOrderDO::getId, id).update(); // want "GQ005 state column t_order.status is set to \\? without a predicate on status"
    }

    // Silent: the method never looked at the state it overwrites; the row
    // was read for something else.
    public void rename(Long id, String note) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        orderMapper.updateById(new MybatisPlusOrderDO().setId(order.getId()).setNote(note + order.getOrderNo()));
    }

    // Silent: the row is read only to see that it exists; the method never
    // looks at the state it overwrites (an administrator's override).
    public void override(Long id, String status) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        if (order == null) {
            throw new IllegalArgumentException("no order " + id);
        }
        orderMapper.updateById(new MybatisPlusOrderDO().setId(id).setStatus(status));
    }

    // saveOrUpdate of the entity read is its update.
    public void close(Long id) {
        MybatisPlusOrderDO order = getById(id);
        order.setStatus("closed");
        saveOrUpdate(order); // want "GQ005 state column t_order.status is set to \"closed\" and written by MybatisPlusOrderService.saveOrUpdate after order read by getById"
    }

    // Silent: saveOrUpdate of a new entity may insert it.
    public void copy(Long id, String orderNo) {
        MybatisPlusOrderDO order = getById(id);
        saveOrUpdate(new MybatisPlusOrderDO().setOrderNo(orderNo).setStatus(order.getStatus() + "-copy"));
    }

    // Silent: an on/off switch written after a look at it; writing DISABLE
    // twice is writing it once.
    public void disable(Long id) {
        MybatisPlusOrderDO order = getById(id);
        if (CommonStatusEnum.DISABLE.getStatus().equals(order.getStatus())) {
            throw new IllegalStateException("already disabled");
        }
        orderMapper.updateById(new MybatisPlusOrderDO().setId(id).setStatus(CommonStatusEnum.DISABLE.getStatus()));
    }

    private MybatisPlusOrderDO validatePending(Long id) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        if (order == null || !"pending".equals(order.getStatus())) {
            throw new IllegalStateException("not pending");
        }
        return order;
    }
}
