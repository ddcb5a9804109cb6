package shop.signed;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Update;

// The mapper's statements add an amount whose sign the caller picks
// (StockMapper.xml holds those without an annotation).
public interface StockMapper {
    int addStock(@Param("id") long id, @Param("delta") int delta);

    @Update("UPDATE t_inventory SET inventory = inventory + #{delta} WHERE id = #{id}") // want "GQ002 decrement of counter t_inventory.inventory by \\? \\(`inventory \\+ \\?`, where .*signed/StockService.java:16 passes 0 - qty\\) has no WHERE conjunct"
    int moveStock(@Param("id") long id, @Param("delta") int delta);

    int restock(@Param("id") long id, @Param("n") int n);

    int addStockGuarded(@Param("id") long id, @Param("delta") int delta);

    int addStockChecked(@Param("id") long id, @Param("delta") int delta, @Param("need") int need);

    int applyDelta(StockDelta delta);

    // Safe twin of the annotation: its one caller passes a positive amount.
    @Update("UPDATE t_inventory SET inventory = inventory + #{n} WHERE id = #{id}")
    int putBack(@Param("id") long id, @Param("n") int n);
}
