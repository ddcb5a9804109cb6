package shop.tk.service;

import shop.tk.mapper.TkOrderMapper;
import shop.tk.mapper.TkVersionedOrderMapper;
import shop.tk.model.TkOrder;
import shop.tk.model.TkVersionedOrder;

public class TkOrderService {
    private TkOrderMapper orderMapper;
    private TkVersionedOrderMapper versionedMapper;

    // Check the state in Java, then write it by primary key: the WHERE
    // tk.mybatis sends names the key only.
    public void pay(long id) {
        TkOrder o = orderMapper.selectByPrimaryKey(id);
        if (!"pending".equals(o.getStatus())) {
            throw new IllegalStateException("not pending");
        }
        o.setStatus("paid");
        orderMapper.updateByPrimaryKeySelective(o); // want "GQ005 state column t_order.status is set to \"paid\" and written by shop.tk.mapper.TkOrderMapper.updateByPrimaryKeySelective"
    }

    // Safe twin: @Version makes the write compare the version read.
    public void payVersioned(long id) {
        TkVersionedOrder o = versionedMapper.selectByPrimaryKey(id);
        if (!"pending".equals(o.getStatus())) {
            throw new IllegalStateException("not pending");
        }
        o.setStatus("paid");
        versionedMapper.updateByPrimaryKeySelective(o);
    }
}
