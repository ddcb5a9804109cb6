package com.shop.mapper;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

@Mapper
public interface SkuMapper {

    @Select("SELECT id, old_price FROM t_sku WHERE id = #{id}")
    java.math.BigDecimal oldPrice(@Param("id") long id);
}
