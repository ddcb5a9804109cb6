package shop.service;

import java.util.Date;
import java.util.List;
import shop.mbg.OrderMapper;
import shop.model.Order;
import shop.model.OrderExample;

// A service that wraps the generated mapper: its callers read, change and
// write orders through it.
public class WrapperOrderService {
    private OrderMapper orderMapper;

    // A read wrapper: the one record a generated read returns.
    public Order findById(long id) {
        return orderMapper.selectByPrimaryKey(id);
    }

    // A read wrapper too: the first row of a generated list read, or null.
    public Order findOne(long id) {
        OrderExample example = new OrderExample();
        example.createCriteria().andIdEqualTo(id);
        List<Order> list = orderMapper.selectByExample(example);
        if (list.isEmpty()) {
            return null;
        }
        return list.get(0);
    }

    // A list read wrapper: a caller's for-each loop reads its orders.
    public List<Order> findPending() {
        OrderExample example = new OrderExample();
        example.createCriteria().andStatusEqualTo("pending");
        return orderMapper.selectByExample(example);
    }

    // Not a read wrapper: it may return an order no read gave.
    public Order findOrNew(long id) {
        Order o = orderMapper.selectByPrimaryKey(id);
        if (o == null) {
            return new Order();
        }
        return o;
    }

    // A write wrapper: the caller's record, stamped, written by primary key.
    public int update(Order order) {
        order.setUpdatedAt(new Date());
        return orderMapper.updateByPrimaryKeySelective(order);
    }

    // A write wrapper that sets the state itself.
    public void cancel(Order order) {
        order.setStatus("cancelled");
        orderMapper.updateByPrimaryKeySelective(order);
    }

    // A compare-and-set on the timestamp the caller read: the Example
    // compares the old value of a column the record also sets.
    public int updateWithOptimisticLocker(Order order) {
        Date preUpdatedAt = order.getUpdatedAt();
        order.setUpdatedAt(new Date());
        OrderExample example = new OrderExample();
        example.createCriteria().andIdEqualTo(order.getId()).andUpdatedAtEqualTo(preUpdatedAt);
        return orderMapper.updateByExampleSelective(order, example);
    }

    // The Example names the state the transition leaves.
    public int updateFromPending(Order order) {
        OrderExample example = new OrderExample();
        example.createCriteria().andIdEqualTo(order.getId()).andStatusEqualTo("pending");
        return orderMapper.updateByExampleSelective(order, example);
    }

    // Not a wrapper guard follows: whether the write happens depends on a branch.
    public void saveOrUpdate(Order order) {
        if (order.getId() == null) {
            orderMapper.insertSelective(order);
        } else {
            orderMapper.updateByPrimaryKeySelective(order);
        }
    }
}
