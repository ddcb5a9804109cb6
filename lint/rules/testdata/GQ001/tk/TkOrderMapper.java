package shop.tk.mapper;

import shop.tk.model.TkOrder;
import tk.mybatis.mapper.common.Mapper;

public interface TkOrderMapper extends Mapper<TkOrder> {
}
