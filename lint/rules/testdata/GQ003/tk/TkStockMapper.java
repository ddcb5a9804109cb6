package shop.tk.mapper;

import shop.tk.base.BaseTkMapper;
import shop.tk.model.TkStock;

public interface TkStockMapper extends BaseTkMapper<TkStock> {
}
