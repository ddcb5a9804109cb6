package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import shop.jpa.model.JpaInventory;

public interface JpaInventoryRepository extends JpaRepository<JpaInventory, Long> {
    String DEDUCT = "update JpaInventory i set i.quantity = i.quantity - ?1 ";

    // JPQL: the field quantity is the column inventory.
    @Modifying
    @Query("update JpaInventory i set i.quantity = i.quantity - :n where i.id = :id") // want "GQ002 decrement of counter t_inventory.inventory .*SQL rendered by guard from the Spring Data @Query \\(JPQL\\)"
    int deduct(@Param("id") Long id, @Param("n") int n);

    // Safe twin: the WHERE asks for enough stock.
    @Modifying
    @Query("update JpaInventory i set i.quantity = i.quantity - :n where i.id = :id and i.quantity >= :n")
    int deductGuarded(@Param("id") Long id, @Param("n") int n);

    // A text block, reported at the annotation.
    @Modifying
    @Query( // want "GQ002 decrement of counter t_inventory.inventory"
        """
        update JpaInventory
           set quantity = quantity - :n
         where productId = :pid
        """)
    int deductByProduct(@Param("pid") Long productId, @Param("n") int n);

    // Safe twin: a constant joined with the rest, guarded; the entity by SpEL.
    @Modifying
    @Query(DEDUCT + "where i.id = ?2 and i.quantity >= ?1")
    int deductChecked(int n, Long id);

    @Modifying
    @Query("update #{#entityName} i set i.quantity = i.quantity - :n where i.id = :id and :n <= i.quantity")
    int deductSpel(@Param("id") Long id, @Param("n") int n);

    // Native SQL is checked as written.
    @Modifying
    @Query(value = "UPDATE t_inventory SET inventory = inventory - :n WHERE id = :id", nativeQuery = true) // want "GQ002 decrement of counter t_inventory.inventory"
    int deductNative(@Param("id") Long id, @Param("n") int n);

    // A query is not a write.
    @Query("select i from JpaInventory i where i.quantity - :n < 0")
    JpaInventory findShort(@Param("n") int n);
}
