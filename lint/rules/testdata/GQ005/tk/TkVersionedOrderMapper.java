package shop.tk.mapper;

import shop.tk.model.TkVersionedOrder;
import tk.mybatis.mapper.common.Mapper;

public interface TkVersionedOrderMapper extends Mapper<TkVersionedOrder> {
}
