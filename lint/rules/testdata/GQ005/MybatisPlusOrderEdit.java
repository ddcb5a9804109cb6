package shop.plus.service;

import shop.plus.mapper.MybatisPlusOrderMapper;
import shop.plus.model.MybatisPlusOrderDO;

public class MybatisPlusOrderEdit {
    private MybatisPlusOrderMapper orderMapper;

    // Silent: an edit form's partial update copies each field the caller
    // sent into the row read; the old state is never looked at, so no check
    // races with the write.
    public void edit(Long id, OrderEditRequest req) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        if (order == null) {
            throw new IllegalArgumentException("no order " + id);
        }
        if (req.getNote() != null) {
            order.setNote(req.getNote());
        }
        if (req.getStatus() != null) {
            order.setStatus(req.getStatus());
        }
        orderMapper.updateById(order);
    }

    // The same copy after the code checked the old state: check, then act.
    public void editOpen(Long id, OrderEditRequest req) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        if ("closed".equals(order.getStatus())) {
            throw new IllegalStateException("closed");
        }
        if (req.getStatus() != null) order.setStatus(req.getStatus());
        orderMapper.updateById(order); // want "GQ005 state column t_order.status is set to req.getStatus\\(\\) .*after order read by selectById at line 28"
    }

    // The caller's value copied whether sent or not is no partial update:
    // the rule judges it as before.
    public void accept(Long id, OrderEditRequest req) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        order.setStatus(req.getStatus());
        orderMapper.updateById(order); // want "GQ005 state column t_order.status is set to req.getStatus\\(\\) .*after order read by selectById at line 39"
    }

    // A presence test of another value does not make the copy optional.
    public void acceptNoted(Long id, OrderEditRequest req) {
        MybatisPlusOrderDO order = orderMapper.selectById(id);
        if (req.getNote() != null) {
            order.setStatus(req.getStatus());
        }
        orderMapper.updateById(order); // want "GQ005 state column t_order.status is set to req.getStatus\\(\\) .*after order read by selectById at line 46"
    }
}
