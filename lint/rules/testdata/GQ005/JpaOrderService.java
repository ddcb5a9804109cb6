package shop.jpa.service;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import shop.jpa.model.JpaOrder;
import shop.jpa.repository.JpaOrderRepository;

@Service
public class JpaOrderService {
    private JpaOrderRepository orderRepository;

    // Read, set the new state, save: the UPDATE's WHERE names the id only.
    public void ship(String orderNo) {
        JpaOrder order = orderRepository.findByOrderNo(orderNo).orElseThrow(IllegalStateException::new);
        if (!"paid".equals(order.getStatus())) {
            throw new IllegalStateException("not paid");
        }
        order.setStatus("shipped");
        orderRepository.save(order); // want "GQ005 state column t_order.status is set to \"shipped\" and written by shop.jpa.repository.JpaOrderRepository.save after order read by findByOrderNo at line 14"
    }

    // The value at the call is the last one set.
    public void cancel(Long id) {
        JpaOrder order = orderRepository.getReferenceById(id);
        order.setStatus("cancelling");
        order.setStatus("cancelled");
        orderRepository.save(order); // want "GQ005 state column t_order.status is set to \"cancelled\""
    }

    // Safe twin: the transition in one conditional statement, its count compared.
    public void pay(Long id) {
        if (orderRepository.pay(id) != 1) {
            throw new IllegalStateException("not pending");
        }
    }

    // No save: the transaction's commit flushes the new state.
    @Transactional
    public void refund(Long id) {
        JpaOrder order = orderRepository.findById(id).orElseThrow(IllegalStateException::new);
        order.setStatus("refunded"); // want "GQ005 state column t_order.status is set to \"refunded\" and written by the UPDATE JPA's dirty checking sends at the commit of @Transactional refund.. after order read by findById"
    }
}
