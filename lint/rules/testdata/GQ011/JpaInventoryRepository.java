package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import shop.jpa.model.JpaInventory;

public interface JpaInventoryRepository extends JpaRepository<JpaInventory, Long> {
    @Modifying
    @Query("update JpaInventory i set i.inventory = i.inventory - :n, i.version = i.version + 1 where i.id = :id and i.inventory >= :n")
    int deduct(@Param("id") Long id, @Param("n") int n);

    // Nobody can see this one refuse.
    @Modifying
    @Query("update JpaInventory i set i.inventory = i.inventory - :n, i.version = i.version + 1 where i.id = :id and i.inventory >= :n") // want "GQ011 @Modifying void deductQuietly.. runs a guarded decrement of inventory but returns void"
    void deductQuietly(@Param("id") Long id, @Param("n") int n);

    // Safe twin: not conditional, a missing row is the only refusal.
    @Modifying
    @Query("update JpaInventory i set i.note = :note, i.version = i.version + 1 where i.id = :id")
    void annotate(@Param("id") Long id, @Param("note") String note);
}
