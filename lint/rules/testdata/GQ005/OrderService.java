package shop.service;

import shop.mbg.OrderMapper;
import shop.mbg.PaymentArchiveMapper;
import shop.mbg.TPaymentMapper;
import shop.model.Order;
import shop.model.OrderExample;
import shop.model.TPayment;

public class OrderService {
    private OrderMapper orderMapper;
    private TPaymentMapper paymentMapper;
    private PaymentArchiveMapper archiveMapper;

    // The Java check of the state read does not stop a concurrent writer.
    public void ship(long id) {
        Order order = orderMapper.selectByPrimaryKey(id);
        if (!"paid".equals(order.getStatus())) {
            throw new IllegalStateException("not paid");
        }
        order.setStatus("shipped");
        orderMapper.updateByPrimaryKeySelective(order); // want "GQ005 state column t_order.status is set to \"shipped\" and written by shop.mbg.OrderMapper.updateByPrimaryKeySelective .*after order read by selectByPrimaryKey at line 17"
    }

    // No criteria on the state the transition leaves.
    public void cancel(long id) {
        Order record = new Order();
        record.setStatus("cancelled");
        OrderExample example = new OrderExample();
        example.createCriteria().andIdEqualTo(id);
        orderMapper.updateByExampleSelective(record, example); // want "GQ005 state column t_order.status is set to \"cancelled\" .*with Example criteria that compare neither status nor version"
    }

    // Safe twin: the Example names the state the transition leaves.
    public void cancelPending(long id) {
        Order record = new Order();
        record.setStatus("cancelled");
        OrderExample example = new OrderExample();
        example.createCriteria().andIdEqualTo(id).andStatusEqualTo("pending");
        orderMapper.updateByExampleSelective(record, example);
    }

    // Safe twin: the Criteria kept in a local names the state.
    public void cancelPendingKept(long id) {
        Order record = new Order();
        record.setStatus("cancelled");
        OrderExample example = new OrderExample();
        OrderExample.Criteria criteria = example.createCriteria();
        criteria.andIdEqualTo(id);
        criteria.andStatusEqualTo("pending");
        orderMapper.updateByExampleSelective(record, example);
    }

    // Silent: a record not read here; the mapper statement itself is judged in its XML.
    public void update(Order order) {
        orderMapper.updateByPrimaryKeySelective(order);
    }

    // Two branches set the state: one finding for the call.
    public void settle(long id, boolean ok) {
        Order order = orderMapper.selectByPrimaryKey(id);
        if (ok) {
            order.setStatus("done");
        } else {
            order.setStatus("failed");
        }
        orderMapper.updateByPrimaryKeySelective(order); // want "GQ005 state column t_order.status is set to \"done\""
    }

    // No mapper XML: the table is the record's class in snake_case.
    public void refund(long id) {
        TPayment payment = paymentMapper.selectByPrimaryKey(id);
        payment.setStatus("refunded");
        paymentMapper.updateByPrimaryKey(payment); // want "GQ005 state column t_payment.status is set to \"refunded\" and written by shop.mbg.TPaymentMapper.updateByPrimaryKey after payment read"
    }

    // Silent: the mapper XML holds this statement and guard cannot read it.
    public void archive(long id) {
        TPayment payment = archiveMapper.selectByPrimaryKey(id);
        payment.setStatus("archived");
        archiveMapper.updateByPrimaryKey(payment);
    }

    // Silent: the state read is written back as it was (a form keeping it).
    public void rename(Order form) {
        Order old = orderMapper.selectByPrimaryKey(form.getId());
        form.setStatus(old.getStatus());
        orderMapper.updateByPrimaryKeySelective(form);
    }

    // The state comes from the read, moved on: the write does not say from where.
    public void reopen(Order form) {
        Order old = orderMapper.selectByPrimaryKey(form.getId());
        form.setStatus(old.getStatus() + "-reopened");
        orderMapper.updateByPrimaryKeySelective(form); // want "GQ005 state column t_order.status .*from old read by selectByPrimaryKey"
    }
}
