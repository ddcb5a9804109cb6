package shop.audit;

import shop.model.Order;

// A class of its own package named like the service: no import names
// shop.service's, so the calls are not resolved to it.
public class WrapperOrderAudit {
    private WrapperOrderService orderService;

    public void close(long id) {
        Order order = orderService.findById(id);
        order.setStatus("closed");
        orderService.update(order);
    }
}

class WrapperOrderService {
    Order findById(long id) {
        return null;
    }

    int update(Order order) {
        return 0;
    }
}
