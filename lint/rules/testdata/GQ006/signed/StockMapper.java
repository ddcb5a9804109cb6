package shop.signed;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Update;

// The mapper's statements add an amount whose sign the caller picks
// (StockMapper.xml holds those without an annotation).
public interface StockMapper {
    int addStock(@Param("id") long id, @Param("delta") int delta);

    @Update("UPDATE t_inventory SET inventory = IF(inventory + #{delta} >= 0, inventory + #{delta}, 0) WHERE id = #{id}") // want "GQ006 decrement of counter t_inventory.inventory is clamped \\(IF\\(.*\\), where .*signed/StockService.java:16 passes -1 \\* qty\\)"
    int moveStock(@Param("id") long id, @Param("delta") int delta);

    int restock(@Param("id") long id, @Param("n") int n);
}
