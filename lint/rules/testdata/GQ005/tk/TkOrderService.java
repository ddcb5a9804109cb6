package shop.tk.service;

import shop.tk.mapper.TkOrderMapper;
import shop.tk.mapper.TkVersionedOrderMapper;
import shop.tk.model.TkOrder;
import shop.tk.model.TkVersionedOrder;
import tk.mybatis.mapper.entity.Example;

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

    // The Example names its properties in strings: it compares the key only.
    public void ship(long id) {
        TkOrder o = orderMapper.selectByPrimaryKey(id);
        if (!"paid".equals(o.getStatus())) {
            throw new IllegalStateException("not paid");
        }
        TkOrder shipped = new TkOrder();
        shipped.setStatus("shipped");
        Example byId = new Example(TkOrder.class);
        byId.createCriteria().andEqualTo("id", id);
        orderMapper.updateByExampleSelective(shipped, byId); // want "GQ005 state column t_order.status is set to \"shipped\" and written by shop.tk.mapper.TkOrderMapper.updateByExampleSelective .*with Example criteria that compare neither status nor version"
    }

    // Safe twin: the criteria name the state left.
    public void shipFromPaid(long id) {
        TkOrder shipped = new TkOrder();
        shipped.setStatus("shipped");
        Example fromPaid = new Example(TkOrder.class);
        Example.Criteria where = fromPaid.createCriteria();
        where.andEqualTo("id", id);
        where.andEqualTo("status", "paid");
        orderMapper.updateByExampleSelective(shipped, fromPaid);
    }
}
