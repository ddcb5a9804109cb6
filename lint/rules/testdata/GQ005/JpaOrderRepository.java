package shop.jpa.repository;

import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import shop.jpa.model.JpaOrder;

public interface JpaOrderRepository extends JpaRepository<JpaOrder, Long> {
    Optional<JpaOrder> findByOrderNo(String orderNo);

    @Modifying
    @Query("update JpaOrder o set o.status = :to where o.id = :id") // want "GQ005 .*t_order.status"
    int setStatus(@Param("id") Long id, @Param("to") String to);

    // Safe twin: the transition names the state it leaves.
    @Modifying
    @Query("update JpaOrder o set o.status = 'paid' where o.id = :id and o.status = 'pending'")
    int pay(@Param("id") Long id);
}
