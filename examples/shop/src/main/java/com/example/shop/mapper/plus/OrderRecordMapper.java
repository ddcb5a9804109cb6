package com.example.shop.mapper.plus;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.example.shop.entity.OrderDO;

public interface OrderRecordMapper extends BaseMapper<OrderDO> {
}
