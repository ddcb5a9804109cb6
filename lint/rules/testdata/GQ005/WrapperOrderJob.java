package shop.jobs;

import shop.model.*;
import shop.service.*;

// The types come from wildcard imports: the one class of the run so named.
public class WrapperOrderJob {
    @Resource
    private WrapperOrderService orderService;

    public void close(long id) {
        Order order = orderService.findById(id);
        order.setStatus("closed");
        orderService.update(order); // want "GQ005 state column t_order.status is set to \"closed\" and written by orderService.update → shop.mbg.OrderMapper.updateByPrimaryKeySelective"
    }
}
