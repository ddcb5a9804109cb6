package com.example.shop.mapper;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

public interface InventoryMapper {
    @Update("UPDATE t_inventory SET inventory = inventory - #{n}, version = version + 1 WHERE id = #{id} AND inventory >= #{n}")
    int deduct(@Param("id") long id, @Param("n") int n);

    @Update("UPDATE t_inventory SET status = #{status}, version = version + 1 WHERE id = #{id} AND ${condition}") // want "^GQ010 MyBatis [$][{]condition[}] at 13:100 pastes a raw string"
    int setStatusWhere(@Param("id") long id, @Param("status") String status, @Param("condition") String condition);

    @Select({
        "SELECT id, inventory FROM t_inventory", // want "^GQ010 MyBatis [$][{]sort[}] at 19:19 pastes a raw string"
        "WHERE tenant_id = #{tenantId}",
        "ORDER BY ${sort}"
    })
    List<Map<String, Object>> page(@Param("tenantId") long tenantId, @Param("sort") String sort);

    @Select("SELECT id, inventory FROM t_inventory WHERE id = #{id}")
    Map<String, Object> get(@Param("id") long id);
}
