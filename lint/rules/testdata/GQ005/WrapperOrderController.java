package shop.web;

import java.util.List;
import shop.mbg.OrderMapper;
import shop.model.Order;
import shop.model.TPayment;
import shop.service.WrapperOrderFacade;
import shop.service.WrapperOrderService;
import shop.service.WrapperPaymentService;
import shop.service.WrapperRefundService;

public class WrapperOrderController {
    private final WrapperOrderService orderService;
    private final WrapperOrderFacade orderFacade;
    private final WrapperPaymentService paymentService;
    private final WrapperRefundService refundService;
    private final OrderMapper orderMapper;

    public WrapperOrderController(WrapperOrderService orderService, WrapperOrderFacade orderFacade,
            WrapperPaymentService paymentService, WrapperRefundService refundService, OrderMapper orderMapper) {
        this.orderService = orderService;
        this.orderFacade = orderFacade;
        this.paymentService = paymentService;
        this.refundService = refundService;
        this.orderMapper = orderMapper;
    }

    // Read through the service, checked in Java, written back by key.
    public void pay(long id) {
        Order order = orderService.findById(id);
        if (!"pending".equals(order.getStatus())) {
            throw new IllegalStateException("not pending");
        }
        order.setStatus("paid");
        orderService.update(order); // want "GQ005 state column t_order.status is set to \"paid\" and written by orderService.update → shop.mbg.OrderMapper.updateByPrimaryKeySelective \\(.*GeneratedOrderMapper.xml:39\\) after order read by orderService.findById → OrderMapper.selectByPrimaryKey at line 30"
    }

    // The read wrapper returns the first row of a list.
    public void ship(long id) {
        Order order = orderService.findOne(id);
        order.setStatus("shipped");
        this.orderService.update(order); // want "GQ005 state column t_order.status .*after order read by orderService.findOne → OrderMapper.selectByExample"
    }

    // The wrapper sets the state: its setter counts as the caller's.
    public void cancel(long id) {
        Order order = orderService.findById(id);
        orderService.cancel(order); // want "GQ005 state column t_order.status is set to \"cancelled\" and written by orderService.cancel → shop.mbg.OrderMapper.updateByPrimaryKeySelective"
    }

    // A direct mapper write of a record read through the service.
    public void close(long id) {
        Order order = orderService.findById(id);
        order.setStatus("closed");
        orderMapper.updateByPrimaryKeySelective(order); // want "GQ005 state column t_order.status is set to \"closed\" and written by shop.mbg.OrderMapper.updateByPrimaryKeySelective .*after order read by orderService.findById"
    }

    // The interface's single implementation wraps the mapper (no mapper
    // XML: the table is the record's class in snake_case).
    public void refund(long id) {
        TPayment payment = paymentService.findById(id);
        payment.setStatus("refunded");
        paymentService.update(payment); // want "GQ005 state column t_payment.status is set to \"refunded\" and written by paymentService.update → shop.mbg.TPaymentMapper.updateByPrimaryKeySelective after payment read by paymentService.findById"
    }

    // Each order of a list read through the service is written back by key.
    public void expire() {
        List<Order> pending = orderService.findPending();
        for (Order order : pending) {
            order.setStatus("expired");
            orderService.update(order); // want "GQ005 state column t_order.status is set to \"expired\" .*after order read by orderService.findPending → OrderMapper.selectByExample at line 69"
        }
    }

    // The same loop over the generated list read itself.
    public void expireDirect() {
        for (Order order : orderMapper.selectByExample(null)) {
            order.setStatus("expired");
            orderMapper.updateByPrimaryKeySelective(order); // want "GQ005 state column t_order.status is set to \"expired\" .*after order read by selectByExample at line 77"
        }
    }

    // Silent: the orders come from the caller.
    public void expireGiven(List<Order> orders) {
        for (Order order : orders) {
            order.setStatus("expired");
            orderService.update(order);
        }
    }

    // Safe twin: a compare-and-set on the timestamp read.
    public void payChecked(long id) {
        Order order = orderService.findById(id);
        order.setStatus("paid");
        if (orderService.updateWithOptimisticLocker(order) == 0) {
            throw new IllegalStateException("changed meanwhile");
        }
    }

    // Safe twin: the wrapper's Example names the state left.
    public void payFromPending(long id) {
        Order order = orderService.findById(id);
        order.setStatus("paid");
        orderService.updateFromPending(order);
    }

    // Silent: the record comes from the request, not from a read here.
    public void edit(Order form) {
        form.setStatus("paid");
        orderService.update(form);
    }

    // Silent: findOrNew is no read wrapper.
    public void payOrNew(long id) {
        Order order = orderService.findOrNew(id);
        order.setStatus("paid");
        orderService.update(order);
    }

    // Silent: the write happens on one branch of the wrapper only.
    public void payOrInsert(long id) {
        Order order = orderService.findById(id);
        order.setStatus("paid");
        orderService.saveOrUpdate(order);
    }

    // Silent: a wrapper of a wrapper is not followed.
    public void payThroughFacade(long id) {
        Order order = orderService.findById(id);
        order.setStatus("paid");
        orderFacade.update(order);
    }

    // Silent: two classes implement the interface.
    public void refundEither(long id) {
        TPayment payment = refundService.findById(id);
        payment.setStatus("refunded");
        refundService.update(payment);
    }
}
