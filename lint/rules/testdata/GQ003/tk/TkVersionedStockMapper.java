package shop.tk.mapper;

import shop.tk.model.TkVersionedStock;
import tk.mybatis.mapper.common.Mapper;

public interface TkVersionedStockMapper extends Mapper<TkVersionedStock> {
}
