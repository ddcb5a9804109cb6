package com.example.shop.mapper;

import com.baomidou.mybatisplus.core.conditions.Wrapper;
import com.baomidou.mybatisplus.core.toolkit.Constants;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

public interface InventoryPlusMapper {
    // The wrapper's segment is the caller's SQL with bound values: silent.
    @Select("SELECT id, inventory FROM t_inventory ${ew.customSqlSegment}")
    List<Map<String, Object>> selectByWrapper(@Param(Constants.WRAPPER) Wrapper<?> wrapper);

    // Another ${…} beside it still pastes what the caller passes.
    @Select("SELECT id FROM t_inventory ${ew.customSqlSegment} LIMIT ${limit}") // want "^GQ010 MyBatis [$][{]limit[}] at 16:70 pastes a raw string"
    List<Long> firstIds(@Param(Constants.WRAPPER) Wrapper<?> wrapper, @Param("limit") String limit);
}
