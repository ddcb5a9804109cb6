package com.example.shop.mapper.plus;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.example.shop.entity.InventoryDO;

public interface WarehouseStockMapper extends BaseMapper<InventoryDO> {
}
