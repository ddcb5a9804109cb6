package shop.tk.mapper;

import shop.tk.model.TkOrder;

public interface TkOrderMapper extends tk.mybatis.mapper.common.Mapper<TkOrder> {
}
