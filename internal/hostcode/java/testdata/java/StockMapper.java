package com.example.shop.mapper;

import java.util.List;

import org.apache.ibatis.annotations.Delete;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.SelectProvider;
import org.apache.ibatis.annotations.Update;

import com.example.shop.model.Stock;

/**
 * Stock rows of t_inventory. Every write is one conditional statement; the
 * Redis lock in StockService only reduces contention.
 */
public interface StockMapper {

    String COLUMNS = "id, sku, inventory, status, version";

    @Select("SELECT " + COLUMNS + " FROM t_inventory WHERE id = #{id}")
    Stock findById(@Param("id") long id);

    // guard:ignore GQ007 the nightly report runs on the primary only
    @Select({"SELECT " + COLUMNS,
             "FROM t_inventory",
             "WHERE sku = #{sku} FOR UPDATE"})
    Stock lockBySku(@Param("sku") String sku);

    @Update("""
        UPDATE t_inventory
           SET inventory = inventory - #{n},
               version = version + 1
         WHERE id = #{id}
           AND inventory >= #{n}
        """)
    int deduct(@Param("id") long id, @Param("n") int n);

    @Update(value = "UPDATE t_inventory SET inventory = #{inventory} WHERE id = #{id}")
    int overwrite(Stock stock);

    @Insert("INSERT INTO t_inventory (sku, inventory, status, version) "
          + "VALUES (#{sku}, #{inventory}, 'ACTIVE', 0)")
    @Options(useGeneratedKeys = true, keyProperty = "id")
    int insert(Stock stock);

    @Select("SELECT " + COLUMNS + " FROM t_inventory ORDER BY ${orderBy}")
    List<Stock> listOrdered(@Param("orderBy") String orderBy);

    @Update({"<script>",
             "UPDATE t_inventory",
             "<set>",
             "  <if test='status != null'>status = #{status},</if>",
             "  version = version + 1",
             "</set>",
             "WHERE id = #{id}",
             "</script>"})
    int updateSelective(Stock stock);

    @Delete("DELETE FROM t_inventory WHERE id = #{id} AND version = #{version}")
    int delete(@Param("id") long id, @Param("version") long version);

    @SelectProvider(type = StockSqlProvider.class, method = "search")
    List<Stock> search(StockQuery query);
}
