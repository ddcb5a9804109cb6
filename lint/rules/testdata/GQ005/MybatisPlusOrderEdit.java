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

    // A fixed target state written by key, the row never read: whatever
    // state the order is in (cancelled, say) becomes shipped.
    public void ship(Long id) {
        MybatisPlusOrderDO order = new MybatisPlusOrderDO();
        order.setId(id);
        order.setStatus("shipped");
        orderMapper.updateById(order); // want "GQ005 state column t_order.status is set to \"shipped\" and written by .*by its key without reading the row"
    }

    // Silent: the state the caller sent, copied by key (an edit form).
    public void setStatus(Long id, String status) {
        MybatisPlusOrderDO order = new MybatisPlusOrderDO();
        order.setId(id);
        order.setStatus(status);
        orderMapper.updateById(order);
    }

    // Silent: the caller picks one of two positions, as on a switch.
    public void hold(Long id, boolean on) {
        MybatisPlusOrderDO order = new MybatisPlusOrderDO();
        order.setId(id);
        if (on) {
            order.setStatus("held");
        } else {
            order.setStatus("pending");
        }
        orderMapper.updateById(order);
    }

    // Silent: a record the method did not make may have been read by a
    // call guard does not follow.
    public void shipGiven(MybatisPlusOrderDO order) {
        order.setStatus("shipped");
        orderMapper.updateById(order);
    }
}
