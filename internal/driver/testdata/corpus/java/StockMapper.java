package com.example.stock;

import org.apache.ibatis.annotations.*;

@Mapper
public interface StockMapper {

    @Update({"UPDATE t_sku_stock",
             "SET available_stock = available_stock - #{n}, version = version + 1",
             "WHERE sku_code = #{sku} AND available_stock >= #{n}"})
    int deduct(@Param("sku") String sku, @Param("n") int n);

    @Update("UPDATE t_sku_stock SET available_stock = #{avail} WHERE sku_code = #{sku}")
    int overwrite(@Param("sku") String sku, @Param("avail") int avail);

    @Select("SELECT * FROM ${table} WHERE id = #{id}")
    Stock byId(@Param("table") String table, @Param("id") long id);

    @Delete("""
        DELETE FROM t_coupon_grant
         WHERE user_id = #{userId}
           AND state = 0
        """)
    int revoke(@Param("userId") long userId);

    @Insert("INSERT INTO t_coupon_grant (request_id, user_id) VALUES (#{requestId}, #{userId})")
    int grant(@Param("requestId") String requestId, @Param("userId") long userId);

    @Update("<script>UPDATE t_wallet <set><if test='b != null'>balance = balance - #{b},</if> version = version + 1</set> WHERE user_id = #{u}</script>")
    int debit(@Param("u") long u, @Param("b") java.math.BigDecimal b);
}
