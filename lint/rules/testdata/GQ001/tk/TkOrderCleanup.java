package shop.tk.service;

import shop.tk.mapper.TkOrderMapper;
import shop.tk.model.TkOrder;
import tk.mybatis.mapper.entity.Example;

public class TkOrderCleanup {
    private TkOrderMapper orderMapper;

    // An Example given no criteria: tk.mybatis sends no WHERE.
    public void closeAll() {
        TkOrder closed = new TkOrder();
        closed.setStatus("closed");
        Example every = new Example(TkOrder.class);
        orderMapper.updateByExampleSelective(closed, every); // want "GQ001 UPDATE through shop.tk.mapper.TkOrderMapper.updateByExampleSelective .* with an Example given no criteria has no WHERE: it writes every row of t_order"
    }

    // Safe twin: the Example's criteria are the WHERE.
    public void closeExpired(long id) {
        TkOrder closed = new TkOrder();
        closed.setStatus("closed");
        Example expired = new Example(TkOrder.class);
        expired.createCriteria().andEqualTo("id", id).andEqualTo("status", "expired");
        orderMapper.updateByExampleSelective(closed, expired);
    }
}
