package shop.service;

import shop.model.Order;

// A wrapper of a wrapper: guard follows one level of service only.
public class WrapperOrderFacade {
    private WrapperOrderService orderService;

    public int update(Order order) {
        return orderService.update(order);
    }
}
